import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

/** A clock the test moves; the scheduler looks at it every 20 ms. */
const clock = { at: new Date('2026-03-02T10:00:30Z'), now() { return new Date(this.at); } };
const post = (t: TestServer, path: string, body: unknown) =>
  t.raw(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('schedules paused or deleted while the scheduler fires them', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ clock, schedulerIntervalMs: 20, simulatedDurationMs: 10, concurrency: 4 });
  });
  afterAll(() => t.close());

  // Reproduction: many every-minute schedules come due at once; while the scheduler works
  // through them, the last ones are deleted or paused. None may make a run after its answer.
  it('make no run after the answer, and a paused one shows no next_run', { timeout: 120_000 }, async () => {
    const ids: string[] = [];
    for (let i = 0; i < 160; i++) {
      const res = await post(t, '/api/v1/agent/schedules', { name: `s${i}`, cron_schedule: '* * * * *', prompt: `tick ${i} [simulate 10ms]` });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const deleted = ids.slice(-50);
    const paused = ids.slice(-58, -50);
    clock.at = new Date('2026-03-02T10:01:05Z');
    // The scheduler has begun: the first schedule's run exists.
    await expect.poll(async () => (await t.client.runs.list({ schedule_id: ids[0]! })).runs.length, { timeout: 30_000, interval: 20 }).toBe(1);
    const answers = await Promise.all([
      ...deleted.map((id) => t.raw(`/api/v1/agent/schedules/${id}`, { method: 'DELETE' })),
      ...paused.map((id) => post(t, `/api/v1/agent/schedules/${id}/pause`, {})),
    ]);
    expect(answers.map((a) => a.status).every((s) => s === 204 || s === 200)).toBe(true);
    const runsOf = async (id: string) => (await t.client.runs.list({ schedule_id: id, limit: 5 })).runs.length;
    const atAnswer = await Promise.all([...deleted, ...paused].map(runsOf));

    // A schedule created now fires only on a later check, after the one under way has ended.
    const sentinel = (await post(t, '/api/v1/agent/schedules', { name: 'sentinel', cron_schedule: '* * * * *', prompt: 'last [simulate 10ms]' })).body.id;
    clock.at = new Date('2026-03-02T10:02:05Z');
    await expect.poll(() => runsOf(sentinel), { timeout: 90_000, interval: 100 }).toBe(1);

    expect(await Promise.all([...deleted, ...paused].map(runsOf))).toEqual(atAnswer);
    for (const id of paused) {
      const schedule = (await t.raw(`/api/v1/agent/schedules/${id}`)).body;
      expect(schedule).toMatchObject({ enabled: false, history: { next_run: null } });
    }
  });
});
