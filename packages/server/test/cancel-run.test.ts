import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, ConflictError, NotFoundError } from '@agent-runs/core';
import { startTestServer, type TestServer } from './support/start-test-server.js';
import { openDatabase } from '../src/store/sqlite-driver.js';

let t: TestServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-cancel-'));
  t = await startTestServer({ storage: 'file', dataDir, concurrency: 1 });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('cancelling a run', () => {
  it('cancels a QUEUED run, which then never starts', async () => {
    const blocker = await t.client.runs.create({ prompt: '[simulate hang]' });
    const queued = await t.client.runs.create({ prompt: '[simulate 10ms]' });
    expect(await t.client.runs.cancel(queued.run_id)).toBe(queued.run_id);
    await t.client.runs.cancel(blocker.run_id);
    await new Promise((r) => setTimeout(r, 100));
    const run = await t.client.runs.get(queued.run_id);
    expect(run.state).toBe('CANCELLED');
    expect(run.started_at).toBeNull();
  });

  it('cancels an INPROGRESS run and says who cancelled it', async () => {
    const { run_id } = await t.client.runs.create({ prompt: '[simulate hang]' });
    await expect.poll(async () => (await t.client.runs.get(run_id)).state, { timeout: 5000 }).toBe('INPROGRESS');
    await t.client.runs.cancel(run_id);
    const run = await t.client.runs.get(run_id);
    expect(run.state).toBe('CANCELLED');
    expect(run.status_message?.message).toMatch(/Cancelled by local/);
    await new Promise((r) => setTimeout(r, 150));
    expect((await t.client.runs.get(run_id)).state).toBe('CANCELLED');
  });

  it.each(['SUCCEEDED', 'FAILED', 'ERROR', 'BLOCKED', 'CANCELLED'])('refuses to cancel a %s run with a 400', async (state) => {
    const word = { SUCCEEDED: 'succeed', FAILED: 'fail', ERROR: 'error', BLOCKED: 'block', CANCELLED: 'hang' }[state];
    const { run_id } = await t.client.runs.create({ prompt: `[simulate ${word} 10ms]` });
    if (state === 'CANCELLED') await t.client.runs.cancel(run_id);
    else await t.client.runs.wait(run_id, { pollInterval: 10 });
    const error = await t.client.runs.cancel(run_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).detail).toContain(`already ${state}`);
  });

  it.each(['PENDING', 'CLAIMED'])('answers a %s run with a retryable 409', async (state) => {
    const blocker = await t.client.runs.create({ prompt: '[simulate hang]' });
    const { run_id } = await t.client.runs.create({ prompt: '[simulate 10ms]' });
    // Nothing in this server makes PENDING or CLAIMED runs; another writer of the same database may.
    const db = openDatabase(join(dataDir, 'runs.sqlite'));
    db.prepare('UPDATE runs SET state = ? WHERE id = ?').run(state, run_id);
    db.close();
    const error = await t.client.runs.cancel(run_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).body?.retryable).toBe(true);
    await t.client.runs.cancel(blocker.run_id);
  });

  it('answers an unknown run with a 404', async () => {
    await expect(t.client.runs.cancel('missing-run')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('a run cancelled as it is claimed', () => {
  it('never starts, so its slot is free for the next run', async () => {
    // A long lease: on PostgreSQL its renewal would otherwise let go of such a run within seconds.
    const single = await startTestServer({ concurrency: 1, leaseMs: 600_000 });
    try {
      // A run that would hang for ever, cancelled at once: several times, to meet the
      // moment between its claim and the start of its agent.
      for (let i = 0; i < 10; i++) {
        const { run_id } = await single.client.runs.create({ prompt: '[simulate hang]' });
        await single.client.runs.cancel(run_id);
      }
      const next = await single.client.runs.create({ prompt: '[simulate 10ms]' });
      expect((await single.client.runs.wait(next.run_id, { timeout: 10_000 })).state).toBe('SUCCEEDED');
    } finally {
      await single.close();
    }
  });
});
