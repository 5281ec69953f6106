import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunItem } from '@agent-runs/core';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ concurrency: 1 });
});
afterAll(() => t.close());

async function run(prompt: string): Promise<{ final: RunItem; seen: string[] }> {
  const seen: string[] = [];
  const { run_id } = await t.client.runs.create({ prompt });
  const final = await t.client.runs.wait(run_id, { pollInterval: 10, maxPollInterval: 20, onUpdate: ({ run }) => void seen.push(run.state) });
  return { final, seen };
}

describe('the simulated agent', () => {
  it('goes QUEUED → INPROGRESS → SUCCEEDED, setting started_at and moving updated_at', async () => {
    const { final, seen } = await run('Do it [simulate succeed 150ms]');
    expect(seen).toContain('INPROGRESS');
    expect(final.state).toBe('SUCCEEDED');
    expect(final.started_at).toBeTruthy();
    expect(Date.parse(final.updated_at)).toBeGreaterThan(Date.parse(final.started_at!));
    expect(Date.parse(final.started_at!)).toBeGreaterThanOrEqual(Date.parse(final.created_at));
  });

  it.each([
    ['fail', 'FAILED', /failed/],
    ['error', 'ERROR', /error/],
    ['block', 'BLOCKED', /needs a person/],
  ])('ends %s runs as %s with a status message', async (word, state, message) => {
    const { final } = await run(`Try [simulate ${word} 30ms]`);
    expect(final.state).toBe(state);
    expect(final.status_message?.message).toMatch(message);
  });

  it('takes the default duration when the directive names none', async () => {
    const started = Date.now();
    const { final } = await run('Plain prompt');
    expect(final.state).toBe('SUCCEEDED');
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('keeps a hanging run INPROGRESS until it is cancelled', async () => {
    const { run_id } = await t.client.runs.create({ prompt: '[simulate hang]' });
    await expect(t.client.runs.wait(run_id, { timeout: 300, pollInterval: 20 })).rejects.toMatchObject({ lastRun: { state: 'INPROGRESS' } });
    await t.client.runs.cancel(run_id);
    expect((await t.client.runs.get(run_id)).state).toBe('CANCELLED');
  });

  it('runs queued work first in, first out with one slot', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await t.client.runs.create({ prompt: `job ${i} [simulate 40ms]` })).run_id);
    const runs = await Promise.all(ids.map((id) => t.client.runs.wait(id, { pollInterval: 10 })));
    const starts = runs.map((r) => Date.parse(r.started_at!));
    expect(starts[0]).toBeLessThan(starts[1]!);
    expect(starts[1]).toBeLessThan(starts[2]!);
    // With one slot, each starts only after the one before has ended.
    expect(starts[1]).toBeGreaterThanOrEqual(Date.parse(runs[0]!.updated_at));
  });

  it('says at_capacity when a new run has to wait for a slot', async () => {
    const first = await t.client.runs.create({ prompt: '[simulate hang]' });
    const second = await t.client.runs.create({ prompt: '[simulate 10ms]' });
    expect(second.at_capacity).toBe(true);
    expect((await t.client.runs.get(second.run_id)).state).toBe('QUEUED');
    await t.client.runs.cancel(first.run_id);
    expect((await t.client.runs.wait(second.run_id, { pollInterval: 10 })).state).toBe('SUCCEEDED');
  });

  it('refuses a simulate directive with an unknown word, naming it', async () => {
    const res = await t.raw('/api/v1/agent/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: '[simulate explode]' }) });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('"explode"');
  });

  it('refuses a simulate directive longer than the timer bound, naming the maximum', async () => {
    const res = await t.raw('/api/v1/agent/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: '[simulate 9999h]' }) });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('must be at most 24d');
    expect(res.body.detail).toContain('"9999h"');
  });
});
