import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '@agent-runs/core';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('Idempotency-Key on create', () => {
  it('returns the first run for the same key and body', async () => {
    const first = await t.client.runs.create({ prompt: 'once [simulate hang]', config: { name: 'a' } }, { idempotencyKey: 'k-same' });
    const again = await t.client.runs.create({ config: { name: 'a' }, prompt: 'once [simulate hang]' }, { idempotencyKey: 'k-same' });
    expect(again.run_id).toBe(first.run_id);
    const page = await t.client.runs.list({ q: 'once' });
    expect(page.runs).toHaveLength(1);
    await t.client.runs.cancel(first.run_id);
  });

  it('answers the current state of the first run on a replay', async () => {
    const first = await t.client.runs.create({ prompt: 'replay [simulate 10ms]' }, { idempotencyKey: 'k-state' });
    await t.client.runs.wait(first.run_id, { pollInterval: 10 });
    const again = await t.client.runs.create({ prompt: 'replay [simulate 10ms]' }, { idempotencyKey: 'k-state' });
    expect(again.state).toBe('SUCCEEDED');
  });

  it('refuses the same key with another body with a non-retryable 409', async () => {
    await t.client.runs.create({ prompt: 'first body' }, { idempotencyKey: 'k-conflict' });
    const error = await t.client.runs.create({ prompt: 'second body' }, { idempotencyKey: 'k-conflict' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).body).toMatchObject({ retryable: false, status: 409 });
  });

  it('makes one run from many concurrent creates under one key', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.client.runs.create({ prompt: 'racing [simulate 10ms]' }, { idempotencyKey: 'k-race' })),
    );
    expect(new Set(results.map((r) => r.run_id)).size).toBe(1);
  });

  it('makes separate runs without a key', async () => {
    const res1 = await t.raw('/api/v1/agent/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"no key"}' });
    const res2 = await t.raw('/api/v1/agent/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"no key"}' });
    expect(res1.body.run_id).not.toBe(res2.body.run_id);
  });
});
