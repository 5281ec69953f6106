import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APIError, type RunItem } from '@agent-runs/core';
import { harnessCli, startHarnessServer } from './harness-test-server.js';

const KEY = 'sk-test-0123456789-very-secret';

/** Each harness, the variable its key comes from and what a user installs to get it. */
const HARNESSES = [
  { name: 'claude', variable: 'ANTHROPIC_API_KEY', install: 'npm install -g @anthropic-ai/claude-code' },
  { name: 'codex', variable: 'OPENAI_API_KEY', install: 'npm install -g @openai/codex' },
  { name: 'gemini', variable: 'GEMINI_API_KEY', install: 'npm install -g @google/gemini-cli' },
] as const;

describe.each(HARNESSES)('the $name harness when it cannot run', ({ name, variable, install }) => {
  it('a crashing CLI ends the run FAILED with its last lines', async () => {
    const fake = join(mkdtempSync(join(tmpdir(), `crashing-${name}-`)), name);
    writeFileSync(fake, '#!/bin/sh\necho "starting up"\necho "fatal: the harness fell over" >&2\nexit 3\n', { mode: 0o755 });
    const s = await startHarnessServer({ [name]: { command: fake, env: [variable] } }, { [variable]: KEY });
    try {
      const created = await s.client.runs.create({ prompt: 'hi', config: { harness: { type: name } } });
      const run: RunItem = await s.client.runs.wait(created.run_id, { timeout: 30_000 });
      expect(run.state).toBe('FAILED');
      expect(run.status_message?.message).toContain('exited with code 3');
      expect(run.status_message?.message).toContain('fatal: the harness fell over');
      expect(run.status_message?.message).not.toContain(KEY);
    } finally {
      await s.close();
    }
  });

  it('a missing CLI is a 400 naming agent_config.harness.type and what to install', async () => {
    const s = await startHarnessServer({ [name]: { command: `/nonexistent/${name}`, env: [variable] } }, { [variable]: KEY });
    try {
      const error = await s.client.runs.create({ prompt: 'hi', config: { harness: { type: name } } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(400);
      expect((error as APIError).message).toContain('agent_config.harness.type');
      expect((error as APIError).message).toContain(install);
    } finally {
      await s.close();
    }
  });

  it('a missing key is a 400 saying which variable to set', async () => {
    const s = await startHarnessServer({ [name]: { command: harnessCli(name) } }, {});
    try {
      const error = await s.client.runs.create({ prompt: 'hi', config: { harness: { type: name } } }).catch((e: unknown) => e);
      expect((error as APIError).status).toBe(400);
      expect((error as APIError).message).toContain(variable);
    } finally {
      await s.close();
    }
  });
});
