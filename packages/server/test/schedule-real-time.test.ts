import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ simulatedDurationMs: 10 });
});
afterAll(() => t.close());

// On the real clock: the one test that waits for a real minute boundary.
describe('a schedule on the real clock', () => {
  it('set to every minute, starts a SCHEDULED_AGENT run within 61 seconds', { timeout: 90_000 }, async () => {
    const created = await t.raw('/api/v1/agent/schedules', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'every minute', cron_schedule: '* * * * *', prompt: 'Real time [simulate 10ms]' }),
    });
    const startedAt = Date.now();
    const nextRun = Date.parse(created.body.history.next_run);
    expect(nextRun - startedAt).toBeLessThanOrEqual(60_000);
    let runs: Awaited<ReturnType<typeof t.client.runs.list>>['runs'] = [];
    // 61 s, and some room for a loaded machine to answer.
    while (runs.length === 0 && Date.now() - startedAt < 75_000) {
      await new Promise((r) => setTimeout(r, 500));
      runs = (await t.client.runs.list({ schedule_id: created.body.id })).runs;
    }
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ source: 'SCHEDULED_AGENT', schedule: { schedule_id: created.body.id } });
    expect(Date.parse(runs[0]!.created_at) - startedAt).toBeLessThanOrEqual(61_000);
  });
});
