import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer } from '../src/index.js';
import { startServerProcess } from './support/server-process.js';

const KEY = 'restart-test-key-1';
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-restart-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('restart safety', () => {
  it('fails a run left INPROGRESS by a killed server and carries on with QUEUED runs', async () => {
    const dataDir = tempDir();
    const proc = await startServerProcess(['--data-dir', dataDir, '--api-key', `ci=${KEY}`, '--concurrency', '1']);
    const before = new AgentRunsClient({ baseURL: proc.baseURL, apiKey: KEY, maxRetries: 0 });
    const running = await before.runs.create({ prompt: 'Long job [simulate hang]' });
    const queued = await before.runs.create({ prompt: 'Next job [simulate 50ms]' });
    await expect.poll(async () => (await before.runs.get(running.run_id)).state, { timeout: 5000 }).toBe('INPROGRESS');
    await before.close();
    proc.child.kill('SIGKILL');
    await proc.exited;

    const server = await startServer({ dataDir, apiKeys: [{ key: KEY, principal: 'ci' }], quiet: true });
    const after = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY });
    try {
      const crashed = await after.runs.get(running.run_id);
      expect(crashed.state).toBe('FAILED');
      expect(crashed.status_message?.message).toMatch(/server restarted/);
      expect((await after.runs.wait(queued.run_id, { pollInterval: 20 })).state).toBe('SUCCEEDED');
      expect(crashed.creator?.uid).toBe('ci');
    } finally {
      await after.close();
      await server.close();
    }
  });

  it('on SIGTERM stops taking work, marks the run in flight and exits cleanly', async () => {
    const dataDir = tempDir();
    const proc = await startServerProcess(['--data-dir', dataDir, '--api-key', KEY]);
    const client = new AgentRunsClient({ baseURL: proc.baseURL, apiKey: KEY, maxRetries: 0 });
    const { run_id } = await client.runs.create({ prompt: '[simulate hang]' });
    await expect.poll(async () => (await client.runs.get(run_id)).state, { timeout: 5000 }).toBe('INPROGRESS');
    await client.close();
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toEqual({ code: 0, signal: null });

    const server = await startServer({ dataDir, apiKeys: [{ key: KEY, principal: 'key-1' }], quiet: true });
    const again = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY });
    try {
      const run = await again.runs.get(run_id);
      expect(run.state).toBe('FAILED');
      expect(run.status_message?.message).toMatch(/server was stopped/);
    } finally {
      await again.close();
      await server.close();
    }
  });

  it('refuses a second server on a data directory in use, naming the process', async () => {
    const dataDir = tempDir();
    const proc = await startServerProcess(['--data-dir', dataDir, '--api-key', KEY]);
    try {
      await expect(startServer({ dataDir, quiet: true })).rejects.toThrow(`in use by another server (process ${proc.child.pid}, named in`);
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
    const next = await startServer({ dataDir, quiet: true });
    await next.close();
  });

  it('keeps a generated key in the data directory, printed only when first made', async () => {
    const dataDir = tempDir();
    const first = await startServer({ dataDir, log: () => {} , quiet: false });
    await first.close();
    const lines: string[] = [];
    const second = await startServer({ dataDir, log: (l) => lines.push(l) });
    expect(second.apiKey).toBe(first.apiKey);
    expect(lines.join('\n')).not.toContain(first.apiKey);
    await second.close();
  });
});
