import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/store/sqlite-driver.js';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-schedules-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const clock = { at: new Date('2026-05-04T10:00:30Z'), now() { return new Date(this.at); } };
const start = () => startTestServer({ storage: 'file', dataDir, clock, schedulerIntervalMs: 20, simulatedDurationMs: 10 });

async function scheduledRuns(t: TestServer, id: string, atLeast: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { runs } = await t.client.runs.list({ schedule_id: id, limit: 100 });
    if (runs.length >= atLeast || Date.now() > deadline) return runs;
    await new Promise((r) => setTimeout(r, 25));
  }
}
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('schedules across restarts', () => {
  it('survives a restart, catches up missed ticks with one run, fires each tick once, and resumes', async () => {
    let t = await start();
    const created = await t.raw('/api/v1/agent/schedules', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'minutely', cron_schedule: '* * * * *', prompt: 'Tick [simulate 10ms]' }),
    });
    const id: string = created.body.id;
    await t.close();

    // Down across three ticks (10:01, 10:02, 10:03): one run on the way back up.
    clock.at = new Date('2026-05-04T10:03:10Z');
    t = await start();
    expect(await scheduledRuns(t, id, 1)).toHaveLength(1);
    const item = (await t.raw(`/api/v1/agent/schedules/${id}`)).body;
    expect(item).toMatchObject({ name: 'minutely', history: { last_ran: '2026-05-04T10:03:10.000Z', next_run: '2026-05-04T10:04:00.000Z' } });
    await t.close();

    // A stop that came after the run was made but before the schedule moved on: the tick
    // is still due, its firing record has no run yet. Starting again must not make a second run.
    const db = openDatabase(join(dataDir, 'runs.sqlite'));
    db.prepare("UPDATE schedules SET next_run = '2026-05-04T10:03:00.000Z' WHERE id = ?").run(id);
    db.prepare('UPDATE schedule_firings SET run_id = NULL WHERE schedule_id = ?').run(id);
    db.close();
    t = await start();
    await settle();
    expect(await scheduledRuns(t, id, 1)).toHaveLength(1);
    expect((await t.raw(`/api/v1/agent/schedules/${id}`)).body.history.next_run).toBe('2026-05-04T10:04:00.000Z');

    // And it keeps firing after the restart.
    clock.at = new Date('2026-05-04T10:04:00.050Z');
    expect(await scheduledRuns(t, id, 2)).toHaveLength(2);
    await t.close();
  });
});
