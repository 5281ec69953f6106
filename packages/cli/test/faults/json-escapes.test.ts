import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentRunsClient, type RunItem } from '@agent-runs/core';
import type { RunningServer } from '@agent-runs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.js';
import { startCommandAgentServer } from '../../../../test/support/command-agent.js';

const KEY = 'cli-json-escapes-key-0123456789';

// CSI as one C1 character, a right-to-left override, a line separator and a paragraph separator, an isolate.
const PROMPT = 'colour \u009b31m red, \u202etxt.exe, one\u2028two\u2029three \u2066isolated\u2069';
/** What must never reach a terminal raw from --json output. */
const UNSAFE = /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

// The reproduction: the agent leaves a file named bidi<U+202E>txt.exe, which a terminal shows as bidiexe.txt.
const AGENT = `cat > /dev/null; printf 'MZ' > "$AGENT_RUNS_ARTIFACTS_DIR/$(printf 'bidi\\342\\200\\256txt.exe')"`;

let server: RunningServer;
let client: AgentRunsClient;
let run: RunItem;
beforeAll(async () => {
  server = await startCommandAgentServer(AGENT, { apiKeys: [{ key: KEY, principal: 'tester' }] });
  client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
  const created = await client.runs.create({ prompt: PROMPT });
  run = await client.runs.wait(created.run_id, { pollInterval: 50 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const cli = (args: string[]) => runCli(['--base-url', server.baseURL, ...args], { env: { AGENT_RUNS_API_KEY: KEY } });

describe('--json output', () => {
  it('get --json escapes C1 controls, bidi overrides and isolates and U+2028/U+2029 as \\u…, and reads back the same', async () => {
    expect(run.prompt).toBe(PROMPT);
    const result = await cli(['get', run.run_id, '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(UNSAFE);
    expect(result.stdout).toContain('colour \\u009b31m red, \\u202etxt.exe, one\\u2028two\\u2029three \\u2066isolated\\u2069');
    expect(JSON.parse(result.stdout).prompt).toBe(PROMPT);
  });

  it('list --json does the same', async () => {
    const result = await cli(['list', '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(UNSAFE);
    expect(JSON.parse(result.stdout).runs[0].prompt).toBe(PROMPT);
  });
});

describe('download', () => {
  it('saves a file named with a right-to-left override without it', async () => {
    const out = mkdtempSync(join(tmpdir(), 'agent-runs-download-'));
    const result = await cli(['download', run.run_id, '--out', out, '--json']);
    expect(result.code).toBe(0);
    expect(readdirSync(out)).toEqual(['biditxt.exe']);
    expect(result.stdout).not.toMatch(UNSAFE);
  });
});
