import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, RateLimitError } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';

// A server whose one principal may hold one run in progress; each run lasts about a second.
const KEY = { key: 'quota-key-0123456789abcdef', principal: 'q' };
let server: RunningServer;
beforeAll(async () => {
  const configFile = join(mkdtempSync(join(tmpdir(), 'quotas-')), 'config.json');
  writeFileSync(configFile, JSON.stringify({ quotas: { default: { runs_in_flight: 1 } } }));
  server = await startServer({ port: 0, storage: 'memory', quiet: true, apiKeys: [KEY], configFile, simulatedDurationMs: 1_000 });
});
afterAll(async () => server?.close());

describe('a create over a principal quota (429)', () => {
  it('is retried after Retry-After within the retry budget, and then succeeds', async () => {
    const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY.key, maxRetries: 3 });
    const first = await client.runs.create({ prompt: 'one' });
    await expect.poll(async () => (await client.runs.get(first.run_id)).state, { timeout: 10_000 }).toBe('INPROGRESS');
    const started = Date.now();
    const second = await client.runs.create({ prompt: 'two' });
    expect(second.run_id).not.toBe(first.run_id);
    // It waited for the server's Retry-After (5 s) rather than failing at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
    await client.close();
  }, 30_000);

  it('with maxRetries 0 throws a RateLimitError naming the quota, the quota headers on it', async () => {
    const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY.key, maxRetries: 0 });
    // A run of its own in progress (the retrying client waits out the one before, if it is still running).
    const patient = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY.key, maxRetries: 3 });
    const held = await patient.runs.create({ prompt: 'three' });
    await expect.poll(async () => (await patient.runs.get(held.run_id)).state, { timeout: 10_000 }).toBe('INPROGRESS');
    await patient.close();
    const error = await client.runs.create({ prompt: 'four' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toContain('runs_in_flight (1)');
    expect((error as RateLimitError).headers['ratelimit-policy']).toBe('"in_flight";q=1;w=0');
    expect((error as RateLimitError).headers['retry-after']).toBe('5');
    await client.close();
  }, 30_000);
});
