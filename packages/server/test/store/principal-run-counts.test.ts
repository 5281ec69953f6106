import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/sqlite-driver.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite-migrations.js';
import { SqliteRunStore } from '../../src/store/runs/sqlite-run-store.js';
import { minuteAgoSecond } from '../../src/store/runs/principal-creates.js';
import type { RunStore } from '../../src/store/runs/run-store.js';
import type { Storage } from '../../src/store/storage.js';
import { newRun } from '../support/new-run.js';
import { storagesUnderTest } from '../support/storages-under-test.js';

/** The counters through the store's one read of them, each part alone. */
const heldRuns = async (store: RunStore, creator: string) => (await store.standingOf(creator, { held: true })).held;
const recentCreates = async (store: RunStore, creator: string, since: string) => (await store.standingOf(creator, { held: false, createsSince: since })).creates;

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

/** What the counters say against a real COUNT of the runs table. */
async function expectCountersTrue(store: RunStore, principals: readonly string[]): Promise<void> {
  for (const creator of principals) {
    const counted = async (state: 'QUEUED' | 'INPROGRESS') => store.count({ creator, states: [state], limit: 100_000, sortBy: 'created_at', sortOrder: 'desc' });
    expect(await heldRuns(store, creator), creator).toEqual({ queued: await counted('QUEUED'), inProgress: await counted('INPROGRESS') });
  }
}

describe.each(storagesUnderTest())('the held-run counters per principal on $name', (factory) => {
  let storage: Storage;
  beforeEach(async () => {
    if (!factory.enabled) return;
    storage = await factory.open();
  });
  afterEach(async () => storage?.close());

  it.runIf(factory.enabled)('equal a COUNT of the runs after creates, claims, finishes, cancels, follow-ups, releases and a fail-all', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const [alice, bob] = [`alice-${suffix}`, `bob-${suffix}`];
    const host = `host-${suffix}`;
    const hosts = [host, host] as const;
    const runs = storage.runs;
    for (let i = 0; i < 6; i++) await runs.create(newRun(`a${i}-${suffix}`, { creator: { uid: alice }, workerHost: host, createdAt: at(i), updatedAt: at(i) }));
    for (let i = 0; i < 3; i++) await runs.create(newRun(`b${i}-${suffix}`, { creator: { uid: bob }, workerHost: host, createdAt: at(i), updatedAt: at(i) }));
    // A run made in progress (as a worker's restart may record it) and one already ended count as what they are.
    await runs.create(newRun(`a-ended-${suffix}`, { creator: { uid: alice }, workerHost: host, state: 'SUCCEEDED' }));
    expect(await heldRuns(runs, alice)).toEqual({ queued: 6, inProgress: 0 });
    await expectCountersTrue(runs, [alice, bob]);

    const claimed = [];
    for (let i = 0; i < 4; i++) claimed.push((await runs.claimNext('server-a', at(10 + i), 30_000, hosts))!);
    await expectCountersTrue(runs, [alice, bob]);
    // A finish, a failure, a cancel of a queued run, a release back to the queue.
    await runs.transition(claimed[0]!.id, { from: ['INPROGRESS'], to: 'SUCCEEDED', at: at(20) });
    await runs.transition(claimed[1]!.id, { from: ['INPROGRESS'], to: 'FAILED', at: at(21) });
    await runs.transition(`a5-${suffix}`, { from: ['QUEUED'], to: 'CANCELLED', at: at(22) });
    await runs.transition(claimed[2]!.id, { from: ['INPROGRESS'], to: 'QUEUED', at: at(23) });
    await expectCountersTrue(runs, [alice, bob]);
    // Follow-ups: ended runs queued again.
    await runs.transition(claimed[0]!.id, { from: ['SUCCEEDED'], to: 'QUEUED', at: at(24) });
    await runs.transition(`a-ended-${suffix}`, { from: ['SUCCEEDED'], to: 'QUEUED', at: at(25) });
    // A transition that does not apply moves nothing.
    expect(await runs.transition(`a5-${suffix}`, { from: ['QUEUED'], to: 'CANCELLED', at: at(26) })).toBeUndefined();
    await expectCountersTrue(runs, [alice, bob]);
    // Claimed by a second server, and (on PostgreSQL) moved from it: the counts are the database's, not a server's.
    const other = factory.name === 'PostgreSQL' ? await factory.open() : storage;
    try {
      await Promise.all([0, 1, 2].map((i) => other.runs.claimNext('server-b', at(30 + i), 30_000, hosts)));
      await expectCountersTrue(runs, [alice, bob]);
      await other.runs.failAll(['INPROGRESS'], { message: 'the server stopped' }, at(40));
      await expectCountersTrue(other.runs, [alice, bob]);
    } finally {
      if (other !== storage) await other.close();
    }
    expect((await heldRuns(runs, alice)).inProgress).toBe(0);
    expect(await heldRuns(runs, `nobody-${suffix}`)).toEqual({ queued: 0, inProgress: 0 });
  });

  it.runIf(factory.enabled)('stay true when creates and claims of one principal land at once (two stores on PostgreSQL: two servers)', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const carol = `carol-${suffix}`;
    const host = `host-${suffix}`;
    const other = factory.name === 'PostgreSQL' ? await factory.open() : storage;
    try {
      await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? other : storage).runs.create(newRun(`c${i}-${suffix}`, { creator: { uid: carol }, workerHost: host, updatedAt: at(i % 60) }))),
      );
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? other : storage).runs.claimNext(`server-${i % 2}`, at(50), 30_000, [host, host])));
      await Promise.all(claims.slice(0, 5).map((run, i) => (i % 2 ? other : storage).runs.transition(run!.id, { from: ['INPROGRESS'], to: 'SUCCEEDED', at: at(55) })));
      expect(await heldRuns(storage.runs, carol)).toEqual({ queued: 18, inProgress: 7 });
      await expectCountersTrue(storage.runs, [carol]);
    } finally {
      if (other !== storage) await other.close();
    }
  });

  it.runIf(factory.enabled)('count the creates of the last minute per second, a second a minute old starting its slot again', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const fay = `fay-${suffix}`;
    const t0 = Date.UTC(2026, 5, 1, 10, 0, 0);
    const create = (id: string, ms: number) => storage.runs.create(newRun(`${id}-${suffix}`, { creator: { uid: fay }, createdAt: new Date(t0 + ms).toISOString(), state: 'SUCCEEDED' }));
    await create('a', 0);
    await create('b', 500);
    await create('c', 30_000);
    await create('d', 59_999);
    const sinceAt = (ms: number) => minuteAgoSecond(new Date(t0 + ms));
    expect(await recentCreates(storage.runs, fay, sinceAt(59_999))).toEqual({ count: 4, oldestSecond: '2026-06-01T10:00:00' });
    // At 10:01:00 the second 10:00:00 has left the window.
    expect(await recentCreates(storage.runs, fay, sinceAt(60_000))).toEqual({ count: 2, oldestSecond: '2026-06-01T10:00:30' });
    // A create at 10:01:00 takes the slot of 10:00:00 and starts it from 1.
    await create('e', 60_100);
    expect(await recentCreates(storage.runs, fay, sinceAt(60_100))).toEqual({ count: 3, oldestSecond: '2026-06-01T10:00:30' });
    // A straggler of an older second (a skewed clock) is left out, not counted in the newer one.
    await create('f', 200);
    expect((await recentCreates(storage.runs, fay, sinceAt(60_100))).count).toBe(3);
    // A create of a second before the newest (another server's clock a little behind) is counted in its own second,
    // and the windows that start after it leave it out.
    await create('g', 45_000);
    expect(await recentCreates(storage.runs, fay, sinceAt(60_100))).toEqual({ count: 4, oldestSecond: '2026-06-01T10:00:30' });
    expect(await recentCreates(storage.runs, fay, sinceAt(100_000))).toEqual({ count: 3, oldestSecond: '2026-06-01T10:00:45' });
    expect(await recentCreates(storage.runs, fay, sinceAt(106_000))).toEqual({ count: 2, oldestSecond: '2026-06-01T10:00:59' });
    expect(await recentCreates(storage.runs, fay, sinceAt(119_999))).toEqual({ count: 1, oldestSecond: '2026-06-01T10:01:00' });
    expect((await recentCreates(storage.runs, `nobody-${suffix}`, sinceAt(0)))).toEqual({ count: 0, oldestSecond: undefined });
  });

  it.runIf(factory.enabled)('start a principal of weight 2 twice for another of weight 1 once (A,A,B,A,A,B…)', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const [a, b] = [`a-${suffix}`, `b-${suffix}`];
    const host = `host-${suffix}`;
    await storage.runs.setTurnWeights({ [a]: 2 });
    // Each queues 20, A first, with nothing running: one slot, each run finished before the next is claimed.
    for (let i = 0; i < 20; i++) await storage.runs.create(newRun(`a${i}-${suffix}`, { creator: { uid: a }, workerHost: host, updatedAt: at(i) }));
    for (let i = 0; i < 20; i++) await storage.runs.create(newRun(`b${i}-${suffix}`, { creator: { uid: b }, workerHost: host, updatedAt: at(20 + i) }));
    const order: string[] = [];
    for (let i = 0; i < 40; i++) {
      const run = (await storage.runs.claimNext('server-a', at(40 + i), 30_000, [host, host]))!;
      order.push(run.creator.uid === a ? 'A' : 'B');
      await storage.runs.transition(run.id, { from: ['INPROGRESS'], to: 'SUCCEEDED', at: at(40 + i) });
    }
    // B's 20 take 20 turns, A's 20 ten (two a turn): A,A,B ten times, then B's last ten.
    expect(order.join('')).toBe('AAB'.repeat(10) + 'B'.repeat(10));
    // Weights replaced: not named any more, A is weight 1 again (its next queued run takes a turn of its own).
    await storage.runs.setTurnWeights({});
    for (let i = 0; i < 3; i++) await storage.runs.create(newRun(`a-again${i}-${suffix}`, { creator: { uid: a }, workerHost: host, updatedAt: at(100 + i) }));
    for (let i = 0; i < 3; i++) await storage.runs.create(newRun(`b-again${i}-${suffix}`, { creator: { uid: b }, workerHost: host, updatedAt: at(110 + i) }));
    const again: string[] = [];
    for (let i = 0; i < 6; i++) {
      const run = (await storage.runs.claimNext('server-a', at(120 + i), 30_000, [host, host]))!;
      again.push(run.creator.uid === a ? 'A' : 'B');
      await storage.runs.transition(run.id, { from: ['INPROGRESS'], to: 'SUCCEEDED', at: at(120 + i) });
    }
    expect(again.join('')).toBe('ABABAB');
  });
});

describe('the counters on a SQLite database that had runs before them', () => {
  it('are counted from its runs by the migration step that makes them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-counts-'));
    try {
      const file = join(dir, 'runs.db');
      const before = new SqliteRunStore(file);
      const now = Date.now();
      // Dana's three in three seconds of the last minute (so a window's count needs the running totals made), eve's first now.
      const createdAt = (i: number) => (i === 4 ? at(0) : new Date(i < 3 ? now - (2 - i) * 5_000 : now).toISOString());
      for (let i = 0; i < 5; i++) await before.create(newRun(`r${i}`, { creator: { uid: i < 3 ? 'dana' : 'eve' }, createdAt: createdAt(i) }));
      await before.claimNext('server-a', at(1), 30_000);
      await before.close();
      // Back to the schema before the counters: their step and those after it (the weights, the run tokens) undone.
      const countsStep = SQLITE_MIGRATIONS.find((step) => step.name === 'held runs counted per principal')!;
      const db = openDatabase(file);
      db.exec('DROP TRIGGER runs_count_on_insert; DROP TRIGGER runs_count_on_move; DROP TRIGGER runs_count_on_delete; DROP TRIGGER runs_count_creates; DROP TABLE principal_run_counts; DROP TABLE principal_creates; DROP TABLE principal_turn_weights; DROP TABLE run_tokens;');
      db.pragma(`user_version = ${countsStep.version - 1}`);
      db.close();
      const after = new SqliteRunStore(file);
      expect(await heldRuns(after, 'dana')).toEqual({ queued: 2, inProgress: 1 });
      expect(await heldRuns(after, 'eve')).toEqual({ queued: 2, inProgress: 0 });
      // The creates of the last minute too (eve's second run was made long ago).
      const since = minuteAgoSecond(new Date());
      expect((await recentCreates(after, 'dana', since)).count).toBe(3);
      expect((await recentCreates(after, 'eve', since)).count).toBe(1);
      // And the creates after it are counted on top.
      await after.create(newRun('r5', { creator: { uid: 'dana' }, createdAt: new Date().toISOString() }));
      expect((await recentCreates(after, 'dana', minuteAgoSecond(new Date()))).count).toBe(4);
      await after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
