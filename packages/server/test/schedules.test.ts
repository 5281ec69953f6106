import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScheduledAgentItemSchema, type RunItem } from '@agent-runs/core';
import { startTestServer, type TestServer } from './support/start-test-server.js';

/** A clock the test moves; the scheduler looks at it every 20 ms. */
const clock = { at: new Date('2026-03-02T10:00:30Z'), now() { return new Date(this.at); } };
const moveTo = (iso: string) => (clock.at = new Date(iso));

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock, schedulerIntervalMs: 20, simulatedDurationMs: 10 });
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };
const post = (path: string, body?: unknown) => t.raw(`/api/v1${path}`, { method: 'POST', headers: json, ...(body ? { body: JSON.stringify(body) } : {}) });
const put = (path: string, body: unknown) => t.raw(`/api/v1${path}`, { method: 'PUT', headers: json, body: JSON.stringify(body) });

async function runsOf(scheduleId: string): Promise<RunItem[]> {
  return (await t.client.runs.list({ schedule_id: scheduleId, limit: 500 })).runs;
}

/** Waits (bounded) until the schedule has made `count` runs. */
async function untilRuns(scheduleId: string, count: number): Promise<RunItem[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const runs = await runsOf(scheduleId);
    if (runs.length >= count || Date.now() > deadline) return runs;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe('schedules', () => {
  it('creates a schedule with its next tick in UTC, and gets, lists, updates and deletes it', async () => {
    moveTo('2026-03-02T10:00:30Z');
    const created = await post('/agent/schedules', { name: 'nightly', cron_schedule: '0 2 * * *', prompt: 'Tidy up [simulate 10ms]' });
    expect(created.status).toBe(201);
    const item = ScheduledAgentItemSchema.parse(created.body);
    expect(item).toMatchObject({ name: 'nightly', cron_schedule: '0 2 * * *', enabled: true, prompt: 'Tidy up [simulate 10ms]', last_spawn_error: null });
    expect(item.history).toEqual({ last_ran: null, next_run: '2026-03-03T02:00:00.000Z' });

    expect((await t.raw(`/api/v1/agent/schedules/${item.id}`)).body).toEqual(created.body);
    expect((await t.raw('/api/v1/agent/schedules')).body.schedules.map((s: { id: string }) => s.id)).toContain(item.id);

    const updated = await put(`/agent/schedules/${item.id}`, { name: 'hourly', cron_schedule: '15 * * * *', enabled: true, prompt: 'Tidy' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'hourly', cron_schedule: '15 * * * *', history: { next_run: '2026-03-02T10:15:00.000Z' } });

    const deleted = await t.raw(`/api/v1/agent/schedules/${item.id}`, { method: 'DELETE' });
    expect(deleted).toMatchObject({ status: 200, body: { success: true } });
    expect((await t.raw(`/api/v1/agent/schedules/${item.id}`)).status).toBe(404);
  });

  it('fires at each tick: a run with source SCHEDULED_AGENT and the schedule on it, found by schedule_id', async () => {
    moveTo('2026-03-02T11:00:30Z');
    const { body: s } = await post('/agent/schedules', { name: 'every minute', cron_schedule: '* * * * *', prompt: 'Check the build [simulate 10ms]' });
    await settle();
    expect(await runsOf(s.id)).toHaveLength(0);

    moveTo('2026-03-02T11:01:00.200Z');
    const [run] = await untilRuns(s.id, 1);
    expect(run).toMatchObject({
      source: 'SCHEDULED_AGENT',
      prompt: 'Check the build [simulate 10ms]',
      schedule: { schedule_id: s.id, schedule_name: 'every minute', cron_schedule: '* * * * *' },
    });
    // The firing is recorded once its run exists: the run can be listed a moment before the history shows it.
    await expect
      .poll(async () => (await t.raw(`/api/v1/agent/schedules/${s.id}`)).body.history, { timeout: 5000 })
      .toEqual({ last_ran: '2026-03-02T11:01:00.200Z', next_run: '2026-03-02T11:02:00.000Z' });

    moveTo('2026-03-02T11:02:00.100Z');
    expect(await untilRuns(s.id, 2)).toHaveLength(2);
    await settle();
    expect(await runsOf(s.id)).toHaveLength(2);
  });

  it('starts nothing while paused, and resumes from the next tick without catching up the pause', async () => {
    moveTo('2026-03-02T12:00:30Z');
    const { body: s } = await post('/agent/schedules', { name: 'pausable', cron_schedule: '* * * * *', prompt: 'Ping [simulate 10ms]' });
    const paused = await post(`/agent/schedules/${s.id}/pause`);
    expect(paused.body).toMatchObject({ enabled: false, history: { next_run: null } });
    moveTo('2026-03-02T12:05:00.100Z');
    await settle();
    expect(await runsOf(s.id)).toHaveLength(0);

    const resumed = await post(`/agent/schedules/${s.id}/resume`);
    expect(resumed.body).toMatchObject({ enabled: true, history: { next_run: '2026-03-02T12:06:00.000Z' } });
    await settle();
    expect(await runsOf(s.id)).toHaveLength(0);
    moveTo('2026-03-02T12:06:00.100Z');
    expect(await untilRuns(s.id, 1)).toHaveLength(1);
  });

  it('catches up many missed ticks with one run', async () => {
    moveTo('2026-03-02T13:00:30Z');
    const { body: s } = await post('/agent/schedules', { name: 'catch-up', cron_schedule: '*/5 * * * *', prompt: 'Sweep [simulate 10ms]' });
    moveTo('2026-03-02T14:02:00Z'); // twelve ticks later
    await untilRuns(s.id, 1);
    await settle();
    expect(await runsOf(s.id)).toHaveLength(1);
    expect((await t.raw(`/api/v1/agent/schedules/${s.id}`)).body.history.next_run).toBe('2026-03-02T14:05:00.000Z');
  });

  it('records last_spawn_error when a firing cannot create its run, and moves on', async () => {
    moveTo('2026-03-02T15:00:30Z');
    const { body: s } = await post('/agent/schedules', { name: 'broken', cron_schedule: '* * * * *', prompt: 'Bad [simulate nonsense]' });
    moveTo('2026-03-02T15:01:00.100Z');
    const deadline = Date.now() + 10_000;
    let item = s;
    while (!item.last_spawn_error && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      item = (await t.raw(`/api/v1/agent/schedules/${s.id}`)).body;
    }
    expect(item.last_spawn_error).toMatch(/unknown word "nonsense"/);
    expect(item.history).toEqual({ last_ran: null, next_run: '2026-03-02T15:02:00.000Z' });
    expect(await runsOf(s.id)).toHaveLength(0);
  });

  it('refuses an invalid cron expression with a 400 naming cron_schedule and why', async () => {
    const cases: [string, RegExp][] = [
      ['61 * * * *', /^cron_schedule: "61 \* \* \* \*" is not a 5-field cron expression.*minute: 61/],
      ['* * *', /^cron_schedule: .*exactly 5 parts|^cron_schedule: .*five/],
      ['0 0 * * * *', /^cron_schedule: .*5 parts/],
      ['0 0 31 2 *', /^cron_schedule: "0 0 31 2 \*" never fires/],
    ];
    for (const [cron, detail] of cases) {
      const res = await post('/agent/schedules', { name: 'bad', cron_schedule: cron, prompt: 'x' });
      expect(res.status, cron).toBe(400);
      expect(res.body.detail, cron).toMatch(detail);
    }
  });

  it('names each other mistake in a schedule body', async () => {
    const cases: [unknown, RegExp][] = [
      [{ cron_schedule: '* * * * *', prompt: 'x' }, /^name: is required: a non-empty string/],
      [{ name: 'n', cron_schedule: '* * * * *' }, /^prompt: is required/],
      [{ name: 'n', cron_schedule: '* * * * *', prompt: 'x', colour: 'red' }, /colour: is not a known field/],
      [{ name: 'n', cron_schedule: '* * * * *', prompt: 'x', agent_config: { environment_id: 'nowhere' } }, /agent_config\.environment_id: "nowhere" names no environment/],
      [{ name: 'n', cron_schedule: '* * * * *', prompt: 'x', agent_uid: 'nobody' }, /agent_uid: "nobody" names no named agent/],
      [{ name: 'n', cron_schedule: '* * * * *', agent_config: { skill_spec: 'acme/x:none' } }, /agent_config\.skill_spec: "acme\/x:none" matches no skill/],
    ];
    for (const [body, detail] of cases) {
      const res = await post('/agent/schedules', body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(detail);
    }
    expect((await put('/agent/schedules/missing', { name: 'n', cron_schedule: '* * * * *', enabled: true, prompt: 'x' })).status).toBe(404);
    expect((await post('/agent/schedules/missing/pause')).status).toBe(404);
  });
});
