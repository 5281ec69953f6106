import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../test/support/postgres.js';
import type { ClusterSignal } from '../src/store/cluster.js';
import { openPostgresStorage } from '../src/store/open-postgres-storage.js';
import { artifactsOf } from '../src/store/artifacts/artifact-store.js';
import { openSqliteStorage } from '../src/store/open-sqlite-storage.js';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../src/store/postgres-migrations.js';
import { postgresTarget } from '../src/store/postgres-url.js';
import type { NewRun, RunRecord } from '../src/store/runs/run-record.js';
import type { RunListQuery, RunStore, SortField, SortOrder } from '../src/store/runs/run-store.js';
import type { Storage } from '../src/store/storage.js';
import { newRun } from './support/new-run.js';
import { newSchedule, time } from './support/new-schedule.js';

if (!postgresAdminUrl) {
  if (process.env.AGENT_RUNS_REQUIRE_POSTGRES === '1') {
    throw new Error('AGENT_RUNS_REQUIRE_POSTGRES=1 but AGENT_RUNS_TEST_DATABASE_URL is not set: the PostgreSQL storage cannot be tested.');
  }
  console.warn(
    '\n*** AGENT_RUNS_TEST_DATABASE_URL is not set: the PostgreSQL storage tests are SKIPPED. Set it to an admin URL of a throwaway PostgreSQL. ***\n',
  );
}

interface Factory {
  name: string;
  enabled: boolean;
  /** A storage on an empty database. */
  open(): Promise<Storage>;
}

// One database for the whole file; each test starts from an empty schema.
let database: TestDatabase | undefined;
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  if (postgresAdminUrl) database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function emptyDatabase(): Promise<string> {
  const client = new pg.Client({ connectionString: database!.url });
  await client.connect();
  try {
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  } finally {
    await client.end();
  }
  return database!.url;
}

const quiet = () => undefined;

/** A PostgreSQL storage on the test database, closed after the test. */
async function openPostgres(serverId: string, log: (line: string) => void = quiet, poolSize?: number): Promise<Storage> {
  const storage = await openPostgresStorage(database!.url, { log, serverId, ...(poolSize ? { poolSize } : {}) });
  opened.push(storage);
  return storage;
}

const factories: Factory[] = [
  { name: 'SQLite', enabled: true, open: async () => openSqliteStorage(':memory:') },
  {
    name: 'PostgreSQL',
    enabled: postgresAdminUrl !== undefined,
    open: async () => {
      await emptyDatabase();
      return openPostgres('server-a');
    },
  },
];

const plusMs = (stamp: string, ms: number) => new Date(Date.parse(stamp) + ms).toISOString();


/** A run as read, less what the store may add about its artifacts. */
function withoutHint(run: RunRecord | undefined): RunRecord | undefined {
  if (!run) return run;
  const { hasArtifacts: _hint, ...rest } = run;
  return rest;
}

async function created(runs: Pick<RunStore, 'create'>, run: NewRun): Promise<RunRecord> {
  const result = await runs.create(run);
  if (result.kind !== 'created') throw new Error(`expected the run created, got ${result.kind}`);
  return result.run;
}

/** Every page of `query`, following cursors; the ids in the order served. */
async function walk(runs: Pick<RunStore, 'list'>, query: Omit<RunListQuery, 'limit'>, limit = 4): Promise<string[]> {
  const seen: string[] = [];
  let after = query.after;
  for (let pages = 0; pages < 100; pages++) {
    const page = await runs.list({ ...query, limit, ...(after ? { after } : {}) });
    seen.push(...page.runs.map((r) => r.id));
    if (!page.next) return seen;
    after = page.next;
  }
  throw new Error('more than 100 pages: the cursor does not advance');
}

describe.each(factories)('the $name storage', (factory) => {
  let storage: Storage;
  beforeEach(async (context) => {
    if (!factory.enabled) return context.skip();
    storage = await factory.open();
  });
  afterEach(async () => {
    if (factory.enabled) await storage.close();
  });

  it('reads a created run back by id and by session, with every optional field, and its attachments apart in order', async () => {
    const run = newRun('r1', {
      parentRunId: 'r0',
      conversationId: 'c1',
      metadata: { team: 'blue' },
      mode: 'plan',
      interactive: false,
      agentIdentityUid: 'agent-1',
      scheduleId: 'sch-1',
      origin: { skill_id: 'o/r:s', agent_skill: { name: 's' } },
      statusMessage: { message: 'waiting' },
      agentConfig: { name: 'coder', model_id: 'm1' },
      attachments: [
        { fileName: 'b.bin', mimeType: 'application/octet-stream', data: Buffer.from([0, 255, 1]) },
        { fileName: 'a.txt', mimeType: 'text/plain', data: Buffer.from('hello') },
      ],
    });
    const stored = await created(storage.runs, run);
    const { request: _r, idempotencyKey: _k, requestHash: _h, attachments: _a, ...record } = run;
    expect(withoutHint(await storage.runs.get('r1'))).toEqual({ ...record, seq: stored.seq });
    expect(withoutHint(await storage.runs.getBySession('session-r1'))).toEqual({ ...record, seq: stored.seq });
    expect(await storage.runs.get('missing')).toBeUndefined();
    expect(await storage.runs.getAttachments('r1')).toEqual(run.attachments);
    expect(typeof stored.seq).toBe('number');
  });

  it('lists the runs of a conversation oldest first, and none for an unknown one', async () => {
    await created(storage.runs, newRun('c-a', { conversationId: 'conv-x' }));
    await created(storage.runs, newRun('c-b', { conversationId: 'conv-y' }));
    await created(storage.runs, newRun('c-c', { conversationId: 'conv-x' }));
    expect((await storage.runs.conversationRuns('conv-x')).map((run) => run.id)).toEqual(['c-a', 'c-c']);
    expect(await storage.runs.conversationRuns('conv-z')).toEqual([]);
  });

  it('answers a create repeated under the same key with the first run, and a different body under it as a conflict', async () => {
    const first = await created(storage.runs, newRun('r1', { idempotencyKey: 'k', requestHash: 'h1' }));
    const replay = await storage.runs.create(newRun('r2', { idempotencyKey: 'k', requestHash: 'h1' }));
    expect(replay).toEqual({ kind: 'replayed', run: first });
    const conflict = await storage.runs.create(newRun('r3', { idempotencyKey: 'k', requestHash: 'h2' }));
    expect(conflict).toEqual({ kind: 'conflict', run: first });
    // A create with metadata (written in a transaction of its own) answers the same.
    expect(await storage.runs.create(newRun('r5', { idempotencyKey: 'k', requestHash: 'h1', metadata: { team: 'blue' } }))).toEqual({
      kind: 'replayed',
      run: first,
    });
    expect((await storage.runs.list({ sortBy: 'created_at', sortOrder: 'asc', limit: 10, metadata: { team: 'blue' } })).runs).toEqual([]);
    // Keys belong to their creator: another user's same key makes a run.
    await created(storage.runs, newRun('r4', { idempotencyKey: 'k', requestHash: 'h1', creator: { uid: 'user-2' } }));
    expect(await storage.runs.get('r2')).toBeUndefined();
  });

  it('stores a created run\'s first event with it as event 1, none for a repeated key, and numbers later events after it', async () => {
    const event = (version: string) => ({ data: JSON.stringify({ version }), runVersion: version });
    await storage.runs.create(newRun('e1', { idempotencyKey: 'k', requestHash: 'h' }), event('queued'));
    // With metadata the create takes a transaction of its own; the event is in it too.
    await storage.runs.create(newRun('e2', { metadata: { team: 'blue' } }), event('queued-2'));
    expect(await storage.runs.create(newRun('e3', { idempotencyKey: 'k', requestHash: 'h' }), event('other'))).toMatchObject({ kind: 'replayed' });
    expect(await storage.events.after('e1', 0, 10)).toEqual([{ runId: 'e1', id: 1, kind: 'run', data: '{"version":"queued"}' }]);
    expect(await storage.events.head('e1')).toEqual({ lastId: 1, outputBytes: 0, droppedThrough: 0, droppedBytes: 0, runVersion: 'queued' });
    expect(await storage.events.after('e2', 0, 10)).toEqual([{ runId: 'e2', id: 1, kind: 'run', data: '{"version":"queued-2"}' }]);
    expect(await storage.events.after('e3', 0, 10)).toEqual([]);
    // The same run version again is skipped; the next one is event 2.
    const later = await storage.events.append(
      [
        { runId: 'e1', kind: 'run', data: '{"version":"queued"}', bytes: 0, runVersion: 'queued' },
        { runId: 'e1', kind: 'run', data: '{"version":"started"}', bytes: 0, runVersion: 'started' },
      ],
      1000,
    );
    expect(later.map((e) => e.id)).toEqual([2]);
  });

  describe('pages', () => {
    // Ties in every sort key, upper and lower case, a non-ASCII title, the empty agent name.
    const specs = [
      { id: 'a', title: 'beta', agent: 'x', created: 3, updated: 9, state: 'QUEUED' },
      { id: 'b', title: 'Beta', agent: '', created: 1, updated: 9, state: 'SUCCEEDED' },
      { id: 'c', title: 'alpha', agent: 'x', created: 3, updated: 2, state: 'QUEUED' },
      { id: 'd', title: 'école', agent: 'y', created: 2, updated: 2, state: 'QUEUED' },
      { id: 'e', title: 'beta', agent: 'X', created: 1, updated: 5, state: 'QUEUED' },
      { id: 'f', title: 'zeta', agent: '', created: 5, updated: 1, state: 'FAILED' },
      { id: 'g', title: 'beta', agent: 'x', created: 3, updated: 9, state: 'QUEUED' },
      { id: 'h', title: 'Alpha', agent: 'y', created: 4, updated: 7, state: 'QUEUED' },
      { id: 'i', title: 'beta', agent: '', created: 1, updated: 5, state: 'QUEUED' },
      { id: 'j', title: '_b', agent: 'x', created: 6, updated: 3, state: 'QUEUED' },
    ];
    const key = { updated_at: 'updated', created_at: 'created', title: 'title', agent: 'agent' } as const;
    const cases = (['updated_at', 'created_at', 'title', 'agent'] as SortField[]).flatMap((s) => (['asc', 'desc'] as SortOrder[]).map((o) => [s, o] as const));

    it.each(cases)('walks every queued run exactly once sorted by %s %s, ties in insertion order', async (sortBy, sortOrder) => {
      const seqs = new Map<string, number>();
      for (const s of specs) {
        const run = await created(
          storage.runs,
          newRun(s.id, { title: s.title, agentConfig: s.agent ? { name: s.agent } : {}, createdAt: time(s.created), updatedAt: time(s.updated), state: s.state }),
        );
        seqs.set(s.id, run.seq);
      }
      const value = (s: (typeof specs)[number]) => {
        const k = key[sortBy];
        return k === 'created' || k === 'updated' ? time(s[k]) : s[k];
      };
      // Byte order, as SQLite compares text (JavaScript's code unit order is the same for these).
      const expected = specs
        .filter((s) => s.state === 'QUEUED')
        .sort((x, y) => (value(x) < value(y) ? -1 : value(x) > value(y) ? 1 : seqs.get(x.id)! - seqs.get(y.id)!))
        .map((s) => s.id);
      if (sortOrder === 'desc') expected.reverse();
      expect(await walk(storage.runs, { sortBy, sortOrder, states: ['QUEUED'] }, 3)).toEqual(expected);
    });
  });

  describe('filters', () => {
    beforeEach(async () => {
      await created(storage.runs, newRun('root', { metadata: { team: 'blue', env: 'prod' }, title: 'Deploy the API' }));
      await created(storage.runs, newRun('child', { parentRunId: 'root', metadata: { team: 'blue' }, prompt: 'fix 100% of it' }));
      await created(storage.runs, newRun('grandchild', { parentRunId: 'child', metadata: { team: 'blue', env: 'prod' }, prompt: 'ÉCOLE' }));
      await created(storage.runs, newRun('other', { parentRunId: 'elsewhere', metadata: { team: 'red', env: 'prod' }, agentConfig: { skill_spec: 'o/r:deploy_x' } }));
      await storage.artifacts.add('child', [{ type: 'PULL_REQUEST', data: { url: 'https://example.com/pr/1' } }], time(1));
    });
    const ids = (query: Partial<RunListQuery>) => walk(storage.runs, { sortBy: 'created_at', sortOrder: 'asc', ...query }, 2);

    it('keeps runs carrying every given metadata pair', async () => {
      expect(await ids({ metadata: { team: 'blue', env: 'prod' } })).toEqual(['root', 'grandchild']);
      expect(await ids({ metadata: { team: 'blue' } })).toEqual(['root', 'child', 'grandchild']);
      expect(await ids({ metadata: { team: 'green' } })).toEqual([]);
    });

    it('keeps a run and every run below it for ancestorRunId', async () => {
      expect(await ids({ ancestorRunId: 'root' })).toEqual(['root', 'child', 'grandchild']);
      expect(await ids({ ancestorRunId: 'child' })).toEqual(['child', 'grandchild']);
      expect(await ids({ ancestorRunId: 'nobody' })).toEqual([]);
    });

    it('keeps runs that produced an artifact of the type', async () => {
      expect(await ids({ artifactType: 'PULL_REQUEST' })).toEqual(['child']);
      expect(await ids({ artifactType: 'FILE' })).toEqual([]);
    });

    it('matches q in title, prompt or skill, ASCII case-insensitively and with % and _ taken literally', async () => {
      expect(await ids({ q: 'deploy' })).toEqual(['root', 'other']);
      expect(await ids({ q: '100%' })).toEqual(['child']);
      expect(await ids({ q: '1%0' })).toEqual([]);
      expect(await ids({ q: 'y_x' })).toEqual(['other']);
      expect(await ids({ q: 'y_' })).toEqual(['other']);
      expect(await ids({ q: 'ole' })).toEqual(['grandchild']);
      // SQLite folds the case of ASCII letters only.
      expect(await ids({ q: 'école' })).toEqual([]);
    });

    it('combines filters, and answers nothing for a filter without data', async () => {
      expect(await ids({ metadata: { env: 'prod' }, ancestorRunId: 'root', q: 'école'.toUpperCase() })).toEqual(['grandchild']);
      expect(await ids({ nothing: true })).toEqual([]);
    });
  });

  it('applies a transition only from the states given, and records its message and start', async () => {
    await created(storage.runs, newRun('r1'));
    expect(await storage.runs.transition('r1', { from: ['INPROGRESS'], to: 'SUCCEEDED', at: time(5) })).toBeUndefined();
    const started = await storage.runs.transition('r1', { from: ['QUEUED'], to: 'INPROGRESS', at: time(6), startedAt: time(6) });
    expect(started).toMatchObject({ state: 'INPROGRESS', updatedAt: time(6), startedAt: time(6), statusMessage: null });
    const failed = await storage.runs.transition('r1', { from: ['INPROGRESS'], to: 'FAILED', at: time(7), statusMessage: { message: 'boom' } });
    expect(failed).toMatchObject({ state: 'FAILED', statusMessage: { message: 'boom' }, startedAt: time(6) });
    expect(await storage.runs.transition('missing', { from: ['QUEUED'], to: 'FAILED', at: time(7) })).toBeUndefined();
  });

  it('moves a run\'s updated_at one millisecond past its last when a write gives a time not later, on every write that stamps it', async () => {
    await created(storage.runs, newRun('r1', { updatedAt: time(5) }));
    await created(storage.runs, newRun('r2', { updatedAt: time(5) }));
    // Two runs may share a moment: only a run's own stamps must differ.
    expect(await storage.runs.claimNext('a', time(5), 60_000)).toMatchObject({ id: 'r1', updatedAt: plusMs(time(5), 1) });
    expect(await storage.runs.claimNext('a', time(5), 60_000)).toMatchObject({ id: 'r2', updatedAt: plusMs(time(5), 1) });
    const same = await storage.runs.transition('r1', { from: ['INPROGRESS'], to: 'INPROGRESS', at: time(5) });
    expect(same?.updatedAt).toBe(plusMs(time(5), 2));
    const usage = await storage.runs.setHarnessState('r1', { harnessSessionId: 's' }, time(4));
    expect(usage?.updatedAt).toBe(plusMs(time(5), 3));
    expect(await storage.runs.transition('r1', { from: ['INPROGRESS'], to: 'SUCCEEDED', at: time(6) })).toMatchObject({ updatedAt: time(6) });
    expect(await storage.runs.failAll(['INPROGRESS'], { message: 'server stopped' }, time(1))).toBe(1);
    expect((await storage.runs.get('r2'))?.updatedAt).toBe(plusMs(time(5), 2));
  });

  it("answers the claim (started_at) of each run asked for that exists, in one read of any length", async () => {
    const ids = Array.from({ length: 70 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    for (const id of ids) await created(storage.runs, newRun(id, { updatedAt: time(1) }));
    const claimed = await storage.runs.claimNext('a', time(5), 60_000);
    const claims = await storage.runs.claimsOf([...ids, 'unknown']);
    expect(claims.size).toBe(70);
    expect(claims.get(claimed!.id)).toBe(claimed!.startedAt);
    expect([...claims.entries()].filter(([, at]) => at !== undefined)).toEqual([[claimed!.id, claimed!.startedAt]]);
    expect(claims.has('unknown')).toBe(false);
    expect((await storage.runs.claimsOf([])).size).toBe(0);
  });

  it("replaces a run's budget in place, the rest of its configuration as it was", async () => {
    await created(storage.runs, newRun('r1', { agentConfig: { model_id: 'm', budget: { max_cost_usd: 0.5 } } }));
    const raised = await storage.runs.setBudget('r1', { max_cost_usd: 2, max_duration_seconds: 60 });
    expect(raised?.agentConfig).toEqual({ model_id: 'm', budget: { max_cost_usd: 2, max_duration_seconds: 60 } });
    expect((await storage.runs.get('r1'))?.agentConfig).toEqual(raised?.agentConfig);
    expect(await storage.runs.setBudget('missing', { max_tokens: 1 })).toBeUndefined();
  });

  it('fails every run in the given states and counts them', async () => {
    await created(storage.runs, newRun('q'));
    await created(storage.runs, newRun('s', { state: 'SUCCEEDED' }));
    expect(await storage.runs.failAll(['QUEUED', 'INPROGRESS'], { message: 'server stopped' }, time(9))).toBe(1);
    expect(await storage.runs.get('q')).toMatchObject({ state: 'FAILED', statusMessage: { message: 'server stopped' }, updatedAt: time(9) });
    expect((await storage.runs.get('s'))?.state).toBe('SUCCEEDED');
  });

  it('records process groups and lists those of runs in the given states', async () => {
    await created(storage.runs, newRun('r1', { state: 'INPROGRESS' }));
    await created(storage.runs, newRun('r2', { state: 'SUCCEEDED' }));
    await storage.runs.setProcessGroup('r1', { pgid: 10, startTime: null });
    await storage.runs.setProcessGroup('r1', { pgid: 11, startTime: 'x' });
    await storage.runs.setProcessGroup('r2', { pgid: 12, startTime: null });
    expect(await storage.runs.processGroups(['INPROGRESS'])).toEqual([{ id: 'r1', pgid: 11, startTime: 'x' }]);
  });

  it('keeps artifacts bytes for bytes, in the order made, per run', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const [file, plan] = await storage.artifacts.add(
      'r1',
      [
        { type: 'FILE', data: { filename: 'all.bin' }, content: bytes },
        { type: 'PLAN', data: { content: '# plan' } },
      ],
      time(3),
    );
    await storage.artifacts.add('r2', [{ type: 'SCREENSHOT', data: {}, content: Buffer.from('png') }], time(4));
    expect(await storage.artifacts.content(file!.uid)).toEqual(bytes);
    expect(await storage.artifacts.content(plan!.uid)).toBeUndefined();
    expect(await storage.artifacts.get(file!.uid)).toEqual({ uid: file!.uid, runId: 'r1', type: 'FILE', createdAt: time(3), data: { filename: 'all.bin' }, sizeBytes: 256 });
    expect((await storage.artifacts.listByRun('r1')).map((a) => a.type)).toEqual(['FILE', 'PLAN']);
    const byRuns = await storage.artifacts.listByRuns(['r1', 'r2', 'r3']);
    expect([...byRuns.keys()].sort()).toEqual(['r1', 'r2']);
    expect(await storage.artifacts.runBytes('r1')).toBe(256);
    expect(await storage.artifacts.runBytes('r3')).toBe(0);
  });

  it('tells with a run read by id or session whether it has artifacts', async () => {
    await created(storage.runs, newRun('r1'));
    await created(storage.runs, newRun('r2'));
    await storage.artifacts.add('r2', [{ type: 'PLAN', data: { content: '# plan' } }], time(3));
    // Both stores tell, so a GET of a run without artifacts needs no second query.
    const told = await Promise.all([storage.runs.get('r1'), storage.runs.getBySession('session-r1'), storage.runs.get('r2'), storage.runs.getBySession('session-r2')]);
    expect(told.map((run) => run?.hasArtifacts)).toEqual([false, false, true, true]);
    expect((await artifactsOf(storage.artifacts, told[0]!)).length).toBe(0);
    expect((await artifactsOf(storage.artifacts, told[2]!)).map((a) => a.type)).toEqual(['PLAN']);
  });

  it('answers a follow-up repeated under its key with the first, and hands pending follow-ups to an execution', async () => {
    const first = await storage.conversations.addFollowup('r1', { text: 'again', mode: null, at: time(1), idempotencyKey: 'k' });
    expect(first.replayed).toBe(false);
    expect(await storage.conversations.addFollowup('r1', { text: 'other', mode: 'plan', at: time(2), idempotencyKey: 'k' })).toEqual({
      message: first.message,
      replayed: true,
    });
    const second = await storage.conversations.addFollowup('r1', { text: 'more', mode: 'plan', at: time(3) });
    expect((await storage.conversations.pendingFollowups('r1')).map((m) => m.id)).toEqual([first.message.id, second.message.id]);
    await storage.conversations.assign('r1', [first.message.id], 2);
    expect((await storage.conversations.pendingFollowups('r1')).map((m) => m.id)).toEqual([second.message.id]);
    await storage.conversations.addResult('r1', { execution: 1, state: 'SUCCEEDED', text: 'done', at: time(4) });
    expect((await storage.conversations.list('r1')).map((m) => [m.kind, m.execution])).toEqual([
      ['followup', 2],
      ['followup', null],
      ['result', 1],
    ]);
  });

  it('claims a schedule firing once, then answers what the firing left', async () => {
    await storage.schedules.insert(newSchedule('s1'));
    await storage.schedules.insert(newSchedule('s2', { enabled: false }));
    expect((await storage.schedules.due(time(30))).map((s) => s.id)).toEqual(['s1']);
    expect(await storage.schedules.due(time(29))).toEqual([]);
    expect(await storage.schedules.claimFiring('s1', time(30), time(31))).toEqual({ claimed: true });
    expect(await storage.schedules.claimFiring('s1', time(30), time(32))).toEqual({ claimed: false });
    await storage.schedules.finishFiring('s1', time(30), { runId: 'r9', error: null }, { lastRan: time(31), nextRun: time(35) });
    expect(await storage.schedules.claimFiring('s1', time(30), time(33))).toEqual({ claimed: false, earlier: { runId: 'r9', error: null } });
    expect(await storage.schedules.get('s1')).toEqual(newSchedule('s1', { lastRan: time(31), nextRun: time(35) }));
    expect(await storage.schedules.replace(newSchedule('s1', { name: 'renamed', enabled: false }))).toBe(true);
    expect((await storage.schedules.list()).map((s) => [s.id, s.name, s.enabled])).toEqual([
      ['s1', 'renamed', false],
      ['s2', 'schedule s2', false],
    ]);
    expect(await storage.schedules.delete('s1')).toBe(true);
    expect(await storage.schedules.delete('s1')).toBe(false);
    expect(await storage.schedules.replace(newSchedule('s1'))).toBe(false);
  });

  it('claims the run waiting longest first among runs of equal turns (one each of several principals), and none when nothing waits', async () => {
    const by = (uid: string) => ({ creator: { uid } });
    await created(storage.runs, newRun('late', { updatedAt: time(5), ...by('a') }));
    await created(storage.runs, newRun('early', { updatedAt: time(1), ...by('b') }));
    await created(storage.runs, newRun('early-too', { updatedAt: time(1), ...by('c') }));
    await created(storage.runs, newRun('done', { updatedAt: time(0), state: 'SUCCEEDED' }));
    const claimed: string[] = [];
    for (let run = await storage.runs.claimNext('a', time(9), 60_000); run; run = await storage.runs.claimNext('a', time(9), 60_000)) {
      expect(run).toMatchObject({ state: 'INPROGRESS', updatedAt: time(9), startedAt: time(9) });
      claimed.push(run.id);
    }
    expect(claimed).toEqual(['early', 'early-too', 'late']);
  });

  it("takes turns between principals: one's long line does not keep another's run from the next claim", async () => {
    const run = (id: string, uid: string) => created(storage.runs, newRun(id, { creator: { uid } }));
    for (let i = 1; i <= 5; i++) await run(`a${i}`, 'a');
    // a1 starts; b's and c's runs, created after all of a's, come next (a had its turn), then a's line goes on, with c's second among them.
    expect((await storage.runs.claimNext('s', time(2), 60_000))?.id).toBe('a1');
    await run('b1', 'b');
    await run('c1', 'c');
    await run('c2', 'c');
    const order: string[] = [];
    for (let r = await storage.runs.claimNext('s', time(3), 60_000); r; r = await storage.runs.claimNext('s', time(3), 60_000)) order.push(r.id);
    expect(order).toEqual(['b1', 'c1', 'a2', 'c2', 'a3', 'a4', 'a5']);
  });

  // One write on SQLite; on PostgreSQL, racing on the pool's connections, each taking its turn under the principal's lock.
  it('gives runs created together (in one write) their turns in line', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => created(storage.runs, newRun(`a${String(i).padStart(2, '0')}`, { creator: { uid: 'a' } }))));
    await created(storage.runs, newRun('b0', { creator: { uid: 'b' } }));
    const order: string[] = [];
    for (let r = await storage.runs.claimNext('s', time(3), 60_000); r; r = await storage.runs.claimNext('s', time(3), 60_000)) order.push(r.id);
    expect(order[1]).toBe('b0');
    // Each of A's runs a turn of its own (on PostgreSQL in the order their creates took the lock): B's goes right after the first.
    expect(order.filter((id) => id !== 'b0').sort()).toEqual(Array.from({ length: 12 }, (_, i) => `a${String(i).padStart(2, '0')}`));
  });

  it('keeps the turn of a run let go by its server, and gives one queued again by a follow-up a turn after its principal\'s line', async () => {
    const run = (id: string, uid: string) => created(storage.runs, newRun(id, { creator: { uid } }));
    const claimAll = async (at: string) => {
      const order: string[] = [];
      for (let r = await storage.runs.claimNext('s', at, 60_000); r; r = await storage.runs.claimNext('s', at, 60_000)) order.push(r.id);
      return order;
    };
    await run('a1', 'a');
    await run('a2', 'a');
    await run('b1', 'b');
    const a1 = await storage.runs.claimNext('s', time(2), 60_000);
    expect(a1?.id).toBe('a1');
    // Let go (its server stopped): back in line at its own turn, so before a2, which is older but a turn later.
    await storage.runs.transition('a1', { from: ['INPROGRESS'], to: 'QUEUED', at: time(3), claim: a1!.startedAt! });
    expect(await claimAll(time(4))).toEqual(['b1', 'a1', 'a2']);
    await run('a3', 'a');
    await run('b2', 'b');
    await storage.runs.transition('a1', { from: ['INPROGRESS'], to: 'SUCCEEDED', at: time(5) });
    // A follow-up: queued again after a3 (its principal's line), and so after b2 too.
    await storage.runs.transition('a1', { from: ['SUCCEEDED'], to: 'QUEUED', at: time(6) });
    expect(await claimAll(time(7))).toEqual(['a3', 'b2', 'a1']);
  });

  it('drops the oldest output past the bound, counts it, and keeps the newest chunk whatever its size', async () => {
    const output = (text: string) => ({ runId: 'r1', kind: 'output' as const, data: JSON.stringify({ text }), bytes: text.length });
    await storage.events.append([output('aaaa'), { runId: 'r1', kind: 'run', data: '{}', bytes: 0, runVersion: 'v1' }, output('bbbb')], 10);
    expect(await storage.events.head('r1')).toEqual({ lastId: 3, outputBytes: 8, droppedThrough: 0, droppedBytes: 0, runVersion: 'v1' });
    await storage.events.append([output('cccc')], 10);
    expect(await storage.events.head('r1')).toEqual({ lastId: 4, outputBytes: 8, droppedThrough: 1, droppedBytes: 4, runVersion: 'v1' });
    expect((await storage.events.after('r1', 0, 10)).map((e) => e.id)).toEqual([2, 3, 4]);
    expect((await storage.events.after('r1', 0, 10, true)).map((e) => e.id)).toEqual([3, 4]);
    await storage.events.append([output('x'.repeat(50))], 10);
    expect(await storage.events.head('r1')).toEqual({ lastId: 5, outputBytes: 50, droppedThrough: 4, droppedBytes: 12, runVersion: 'v1' });
    expect((await storage.events.after('r1', 0, 10)).map((e) => [e.id, e.kind])).toEqual([
      [2, 'run'],
      [5, 'output'],
    ]);
    expect((await storage.events.latestRunEvent('r1'))?.id).toBe(2);
    expect(await storage.events.head('nothing-yet')).toEqual({ lastId: 0, outputBytes: 0, droppedThrough: 0, droppedBytes: 0, runVersion: '' });
  });

  it('skips a run event whose version the log already shows, from the same batch or an earlier one', async () => {
    const run = (runId: string, version: string) => ({ runId, kind: 'run' as const, data: JSON.stringify({ version }), bytes: 0, runVersion: version });
    const out = (runId: string, text: string) => ({ runId, kind: 'output' as const, data: JSON.stringify({ text }), bytes: text.length });
    const first = await storage.events.append([run('r1', 'v1'), out('r1', 'a'), run('r1', 'v1'), run('r1', 'v2'), run('r1', 'v1')], 1000);
    expect(first.map((e) => [e.id, e.data])).toEqual([
      [1, '{"version":"v1"}'],
      [2, '{"text":"a"}'],
      [3, '{"version":"v2"}'],
      [4, '{"version":"v1"}'],
    ]);
    expect(await storage.events.head('r1')).toEqual({ lastId: 4, outputBytes: 1, droppedThrough: 0, droppedBytes: 0, runVersion: 'v1' });
    const second = await storage.events.append([out('r2', 'b'), run('r1', 'v1'), run('r2', 'v9'), out('r1', 'c'), run('r2', 'v9')], 1000);
    expect(second).toEqual([
      { runId: 'r2', id: 1, kind: 'output', data: '{"text":"b"}' },
      { runId: 'r2', id: 2, kind: 'run', data: '{"version":"v9"}' },
      { runId: 'r1', id: 5, kind: 'output', data: '{"text":"c"}' },
    ]);
    expect(await storage.events.append([run('r1', 'v1')], 1000)).toEqual([]);
    expect(await storage.events.head('r1')).toEqual({ lastId: 5, outputBytes: 2, droppedThrough: 0, droppedBytes: 0, runVersion: 'v1' });
    expect(await storage.events.head('r2')).toEqual({ lastId: 2, outputBytes: 1, droppedThrough: 0, droppedBytes: 0, runVersion: 'v9' });
    expect((await storage.events.after('r1', 0, 10)).map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('drops past the bound in one append across many chunks and for each run of the batch', async () => {
    const out = (runId: string, i: number) => ({ runId, kind: 'output' as const, data: `${i}`, bytes: 10 });
    const batch = Array.from({ length: 100 }, (_, i) => [out('r1', i), out('r2', i)]).flat();
    await storage.events.append([...batch, { runId: 'r2', kind: 'run', data: '{}', bytes: 0, runVersion: 'v1' }], 495);
    expect(await storage.events.head('r1')).toEqual({ lastId: 100, outputBytes: 490, droppedThrough: 51, droppedBytes: 510, runVersion: '' });
    expect(await storage.events.head('r2')).toEqual({ lastId: 101, outputBytes: 490, droppedThrough: 51, droppedBytes: 510, runVersion: 'v1' });
    expect((await storage.events.after('r1', 0, 1000)).map((e) => e.id)).toEqual(Array.from({ length: 49 }, (_, i) => i + 52));
    expect((await storage.events.after('r2', 0, 1000)).map((e) => e.id)).toEqual([...Array.from({ length: 49 }, (_, i) => i + 52), 101]);
  });

  it('answers the newest output up to an id, about so many bytes, oldest first', async () => {
    await storage.events.append(
      Array.from({ length: 100 }, (_, i) => ({ runId: 'r1', kind: 'output' as const, data: `${i}`, bytes: 10 })),
      1_000_000,
    );
    const tail = await storage.events.outputTail('r1', 90, 70);
    expect(tail.map((e) => e.id)).toEqual([84, 85, 86, 87, 88, 89, 90]);
    expect((await storage.events.outputTail('r1', 100, 5)).map((e) => e.id)).toEqual([100]);
  });

  it('tells when an environment and each skill were last used', async () => {
    await created(storage.runs, newRun('r1', { createdAt: time(1), agentConfig: { environment_id: 'env' }, origin: { skill_id: 'o/r:s' } }));
    await created(storage.runs, newRun('r2', { createdAt: time(3), agentConfig: { environment_id: 'env' }, origin: { skill_id: 'o/r:s' } }));
    await created(storage.runs, newRun('r3', { createdAt: time(2), origin: { skill_id: 'o/r:t' } }));
    expect(await storage.activity.lastRunInEnvironment('env')).toEqual({ id: 'r2', title: 'title r2', state: 'QUEUED', createdAt: time(3), updatedAt: time(0), startedAt: null });
    expect(await storage.activity.lastRunInEnvironment('none')).toBeUndefined();
    expect(await storage.activity.lastRunOfSkills()).toEqual(new Map([['o/r:s', time(3)], ['o/r:t', time(2)]]));
  });
  it('stores named agents, oldest first', async () => {
    const identity = { uid: 'i1', name: 'coder', body: { prompt: 'x', skills: ['a'] }, creatorUid: 'user-1', createdAt: time(1), updatedAt: time(1) };
    await storage.namedAgents.insert(identity);
    await storage.namedAgents.insert({ ...identity, uid: 'i2', name: 'reviewer' });
    expect(await storage.namedAgents.get('i1')).toEqual(identity);
    expect(await storage.namedAgents.replace({ ...identity, name: 'writer', updatedAt: time(2) })).toBe(true);
    expect((await storage.namedAgents.list()).map((i) => i.name)).toEqual(['writer', 'reviewer']);
    expect(await storage.namedAgents.delete('i2')).toBe(true);
    expect(await storage.namedAgents.delete('i2')).toBe(false);
  });
});

/** Resolves once `check` holds, polling; fails after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL database URLs', () => {
  it('shows a URL without its password, and describes where the data is without user or password', () => {
    expect(postgresTarget('postgres://runs:p%40ss@db.internal:6543/agent_runs?sslmode=require&password=x')).toEqual({
      shown: 'postgres://runs@db.internal:6543/agent_runs?sslmode=require',
      description: 'PostgreSQL database agent_runs on db.internal:6543',
    });
    expect(postgresTarget('postgresql://db.internal/agent_runs').description).toBe('PostgreSQL database agent_runs on db.internal:5432');
  });

  it('refuses what is not a PostgreSQL URL without repeating it', () => {
    expect(() => postgresTarget('//db.internal:5432 secret')).toThrow(/not a valid URL; give one like postgres:\/\//);
    expect(() => postgresTarget('mysql://u:secret@db/x')).toThrow(/must start with postgres:\/\/ or postgresql:\/\/, not mysql:/);
    expect(() => postgresTarget('mysql://u:secret@db/x')).not.toThrow(/secret/);
  });
});

describe.skipIf(!postgresAdminUrl)('PostgreSQL shared by several servers', () => {
  beforeEach(async () => {
    await emptyDatabase();
  });

  it('describes the database without user or password', async () => {
    const a = await openPostgres('a');
    const url = new URL(database!.url);
    expect(a.description).toBe(`PostgreSQL database ${url.pathname.slice(1)} on ${url.hostname}:${url.port || '5432'}`);
  });

  it('names the database without its password when it cannot connect', async () => {
    const error = await openPostgresStorage('postgres://someone:s3cret-pass@127.0.0.1:1/agent_runs', { log: quiet, serverId: 'a' }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('postgres://someone@127.0.0.1:1/agent_runs');
    expect((error as Error).message).toMatch(/check that the server is running/);
    expect((error as Error).message).not.toContain('s3cret');
  });

  it('migrates once when two servers open a new database at once', async () => {
    const [a, b] = await Promise.all([openPostgres('a'), openPostgres('b')]);
    await created(a.runs, newRun('r1'));
    expect((await b.runs.get('r1'))?.id).toBe('r1');
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    const { rows } = await client.query('SELECT version, name FROM schema_migrations ORDER BY version');
    await client.end();
    expect(rows).toEqual(POSTGRES_MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
  });

  it('refuses a database written by a newer server', async () => {
    await (await openPostgres('a')).close();
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    await client.query("INSERT INTO schema_migrations (version, name) VALUES (99, 'from the future')");
    await client.end();
    await expect(openPostgresStorage(database!.url, { log: quiet, serverId: 'b' })).rejects.toThrow(
      new RegExp(`written by a newer server \\(schema version 99; this server knows up to ${POSTGRES_MIGRATIONS.at(-1)!.version}\\)\\. Upgrade the server\\.`),
    );
  });

  it('brings a database of schema version 1 up to date, then appends after the events written there', async () => {
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    try {
      await migratePostgres(client, POSTGRES_MIGRATIONS.slice(0, 1));
      // What a server of version 1 left: three events of r1, the first output dropped past the bound.
      await client.query(`INSERT INTO run_events (run_id, id, kind, data, bytes) VALUES
        ('r1', 2, 'run', '{}', 0), ('r1', 3, 'output', '"bb"', 2)`);
      await client.query("INSERT INTO run_event_logs VALUES ('r1', 3, 2, 1, 2, 'v1')");
    } finally {
      await client.end();
    }
    const a = await openPostgres('a');
    const stored = await a.events.append(
      [
        { runId: 'r1', kind: 'run', data: '{}', bytes: 0, runVersion: 'v1' },
        { runId: 'r1', kind: 'output', data: '"ccc"', bytes: 3 },
      ],
      4,
    );
    expect(stored).toEqual([{ runId: 'r1', id: 4, kind: 'output', data: '"ccc"' }]);
    expect(await a.events.head('r1')).toEqual({ lastId: 4, outputBytes: 3, droppedThrough: 3, droppedBytes: 4, runVersion: 'v1' });
    expect((await a.events.after('r1', 0, 10)).map((e) => e.id)).toEqual([2, 4]);
  });

  it('rolls a failing migration step back whole and leaves the recorded version where it was', async () => {
    const steps = [
      { version: 1, name: 'a', sql: 'CREATE TABLE a (x integer)' },
      { version: 2, name: 'bad', sql: 'CREATE TABLE c (z integer); SELECT * FROM missing' },
    ];
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    try {
      await migratePostgres(client, steps.slice(0, 1));
      await migratePostgres(client, steps.slice(0, 1));
      await expect(migratePostgres(client, steps)).rejects.toThrow(/missing/);
      expect((await client.query('SELECT version FROM schema_migrations')).rows).toEqual([{ version: 1 }]);
      expect((await client.query("SELECT to_regclass('c') AS c")).rows).toEqual([{ c: null }]);
    } finally {
      await client.end();
    }
  });

  it('hands each of 50 queued runs to exactly one of 20 claimers on two servers', async () => {
    const [a, b] = await Promise.all([openPostgres('a'), openPostgres('b')]);
    for (let i = 0; i < 50; i++) await created(a.runs, newRun(`r${i}`, { updatedAt: time(i % 7) }));
    const claimer = async (storage: Storage, owner: string) => {
      const got: string[] = [];
      for (let run = await storage.runs.claimNext(owner, time(59), 60_000); run; run = await storage.runs.claimNext(owner, time(59), 60_000)) {
        got.push(run.id);
      }
      return got;
    };
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => claimer(a, 'a')),
      ...Array.from({ length: 10 }, () => claimer(b, 'b')),
    ]);
    const all = results.flat();
    expect(all.length).toBe(50);
    expect(new Set(all).size).toBe(50);
    expect(results.slice(0, 10).flat().length).toBeGreaterThan(0);
    expect(results.slice(10).flat().length).toBeGreaterThan(0);
    expect(await a.runs.list({ limit: 100, sortBy: 'created_at', sortOrder: 'asc', states: ['QUEUED'] })).toEqual({ runs: [] });
  });

  it('renews the leases of the runs a server still holds, and lets go of a run moved out of INPROGRESS', async () => {
    const a = await openPostgres('a');
    await created(a.runs, newRun('r1'));
    await created(a.runs, newRun('r2'));
    await created(a.runs, newRun('r3'));
    await a.runs.claimNext('a', time(1), 60_000);
    await a.runs.claimNext('a', time(1), 60_000);
    await a.runs.claimNext('b', time(1), 60_000);
    expect((await a.cluster!.leases.renew('a', 60_000)).sort()).toEqual(['r1', 'r2']);
    await a.runs.transition('r1', { from: ['INPROGRESS'], to: 'CANCELLED', at: time(2) });
    expect(await a.cluster!.leases.renew('a', 60_000)).toEqual(['r2']);
    expect(await a.cluster!.leases.renew('c', 60_000)).toEqual([]);
  });

  it('fails only runs whose lease ran out, naming their owner, each run once however many servers expire at once', async () => {
    const [a, b] = await Promise.all([openPostgres('a'), openPostgres('b')]);
    for (let i = 0; i < 20; i++) await created(a.runs, newRun(`short${i}`));
    await created(a.runs, newRun('long'));
    await created(a.runs, newRun('renewed'));
    for (let i = 0; i < 20; i++) await a.runs.claimNext(i % 2 ? 'dead-1' : 'dead-2', time(1), 1);
    await a.runs.claimNext('live-server', time(1), 60_000);
    await a.runs.claimNext('slow-server', time(1), 1);
    await a.cluster!.leases.renew('slow-server', 60_000);
    await sleep(50);
    const message = (owner: string | null) => ({ message: `The server ${owner} executing the run stopped.`, error_code: 'internal_error' });
    const rounds = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).cluster!.leases.expire(message, time(7))));
    const expired = rounds.flat();
    expect(expired.map((r) => r.id).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `short${i}`).sort());
    for (const run of expired) {
      const owner = Number(run.id.slice(5)) % 2 ? 'dead-1' : 'dead-2';
      expect(run).toMatchObject({ state: 'FAILED', updatedAt: time(7), statusMessage: message(owner) });
    }
    expect(await b.cluster!.leases.expire(message, time(8))).toEqual([]);
    expect((await a.runs.get('long'))?.state).toBe('INPROGRESS');
    expect((await a.runs.get('renewed'))?.state).toBe('INPROGRESS');
    expect(await a.cluster!.leases.renew('dead-1', 60_000)).toEqual([]);
  });

  it('numbers the events of a run without gaps or repeats when two servers append at once', async () => {
    const [a, b] = await Promise.all([openPostgres('a', quiet, 4), openPostgres('b', quiet, 4)]);
    const append = (storage: Storage, n: number) =>
      storage.events.append(
        [
          { runId: 'r1', kind: 'output', data: `{"n":"${n}"}`, bytes: 1 },
          { runId: 'r2', kind: 'output', data: `{"n":"${n}"}`, bytes: 1 },
          { runId: 'r1', kind: 'run', data: `{"n":"${n}"}`, bytes: 0, runVersion: `v${n}` },
        ],
        1_000_000,
      );
    // The two runs in both orders, so appends that locked them one by one would deadlock.
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        n % 2 ? append(n % 4 === 1 ? a : b, n) : (n % 4 === 0 ? a : b).events.append([{ runId: 'r2', kind: 'output', data: `{"n":"${n}"}`, bytes: 1 }, { runId: 'r1', kind: 'output', data: `{"n":"${n}"}`, bytes: 1 }], 1_000_000),
      ),
    );
    const r1 = results.flat().filter((e) => e.runId === 'r1').map((e) => e.id).sort((x, y) => x - y);
    expect(r1).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect((await a.events.after('r1', 0, 1000)).map((e) => e.id)).toEqual(r1);
    expect((await b.events.after('r2', 0, 1000)).map((e) => e.id)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // Each append's own events of a run are consecutive and in the order given.
    for (const batch of results) {
      const own = batch.filter((e) => e.runId === 'r1').map((e) => e.id);
      expect(own).toEqual(own.map((_, i) => own[0]! + i));
    }
    expect((await a.events.head('r1')).lastId).toBe(60);
  });

  it('tells the other servers that events were stored, and not the server that stored them', async () => {
    const [a, b] = await Promise.all([openPostgres('a'), openPostgres('b')]);
    const atA: ClusterSignal[] = [];
    const atB: ClusterSignal[] = [];
    a.cluster!.signals.subscribe((s) => atA.push(s));
    b.cluster!.signals.subscribe((s) => atB.push(s));
    await a.events.append([{ runId: 'r1', kind: 'output', data: '{}', bytes: 2 }, { runId: 'r1', kind: 'output', data: '{}', bytes: 2 }], 1000);
    await eventually(() => atB.length > 0);
    expect(atB).toEqual([{ kind: 'events', runId: 'r1', lastId: 2 }]);
    await a.cluster!.signals.publish({ kind: 'queued' });
    await eventually(() => atB.length > 1);
    expect(atA).toEqual([]);
  });

  it('sends a burst of queued signals as one notification and one more after it, every publish resolved', async () => {
    const [a, b] = await Promise.all([openPostgres('a'), openPostgres('b')]);
    const atB: ClusterSignal[] = [];
    b.cluster!.signals.subscribe((s) => atB.push(s));
    await Promise.all(Array.from({ length: 20 }, () => a.cluster!.signals.publish({ kind: 'queued' })));
    // A signal sent after the burst arrives after it: then every queued notification is in.
    await a.cluster!.signals.publish({ kind: 'cancel', runId: 'marker' });
    await eventually(() => atB.some((s) => s.kind === 'cancel'));
    expect(atB).toEqual([{ kind: 'queued' }, { kind: 'queued' }, { kind: 'cancel', runId: 'marker' }]);
    await a.cluster!.signals.publish({ kind: 'queued' });
    await eventually(() => atB.length > 3);
    expect(atB.at(-1)).toEqual({ kind: 'queued' });
  });

  it('delivers each kind of signal to the other servers only, and ignores payloads that are not signals', async () => {
    const [a, b] = await Promise.all([openPostgres('a'), openPostgres('b')]);
    const atA: ClusterSignal[] = [];
    const atB: ClusterSignal[] = [];
    a.cluster!.signals.subscribe((s) => atA.push(s));
    b.cluster!.signals.subscribe((s) => atB.push(s));
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    for (const junk of ['not json', '{"kind":"cancel","from":"x"}', '{"kind":"unknown","from":"x"}', '{"kind":"queued"}', '[1]', '{"kind":"events","runId":"r","lastId":"1","from":"x"}']) {
      await client.query("SELECT pg_notify('agent_runs', $1)", [junk]);
    }
    await client.end();
    const sent: ClusterSignal[] = [
      { kind: 'queued' },
      { kind: 'events', runId: 'r1', lastId: 3 },
      { kind: 'cancel', runId: 'r1' },
      { kind: 'followup', runId: 'r1', followupId: 'f1' },
    ];
    for (const signal of sent) await a.cluster!.signals.publish(signal);
    await eventually(() => atB.length >= sent.length);
    expect(atB).toEqual(sent);
    await b.cluster!.signals.publish({ kind: 'cancel', runId: 'r2' });
    await eventually(() => atA.length > 0);
    expect(atA).toEqual([{ kind: 'cancel', runId: 'r2' }]);
    await sleep(100);
    expect(atB).toEqual(sent);
  });

  it('listens again after the database ends its listening connection, and says so', async () => {
    const lines: string[] = [];
    const [a, b] = await Promise.all([openPostgres('a'), openPostgres('b', (line) => lines.push(line))]);
    let reconnected = 0;
    const atB: ClusterSignal[] = [];
    b.cluster!.signals.onReconnect(() => reconnected++);
    b.cluster!.signals.subscribe((s) => atB.push(s));
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    const killed = await client.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'agent-runs-server signals' AND query = 'LISTEN agent_runs'",
    );
    await client.end();
    expect(killed.rowCount).toBe(2);
    await eventually(() => reconnected === 1);
    expect(lines.join('\n')).toMatch(/signals was lost/);
    await a.cluster!.signals.publish({ kind: 'queued' });
    await eventually(() => atB.length === 1);
  });

  it('gives every server the same secret, and a different one per name', async () => {
    const [a, b] = await Promise.all([openPostgres('a'), openPostgres('b')]);
    const [fromA, fromB] = await Promise.all([a.cluster!.secrets.get('session-links'), b.cluster!.secrets.get('session-links')]);
    expect(fromA.length).toBe(32);
    expect(fromB).toEqual(fromA);
    expect(await a.cluster!.secrets.get('session-links')).toEqual(fromA);
    expect(await b.cluster!.secrets.get('downloads')).not.toEqual(fromA);
  });

  it('lets one of two servers claim a schedule firing', async () => {
    const [a, b] = await Promise.all([openPostgres('a'), openPostgres('b')]);
    await a.schedules.insert(newSchedule('s1'));
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).schedules.claimFiring('s1', time(30), time(31))),
    );
    expect(claims.filter((c) => c.claimed).length).toBe(1);
  });

  it('answers a create racing under one key on two servers with one run', async () => {
    const [a, b] = await Promise.all([openPostgres('a'), openPostgres('b')]);
    const results = await Promise.all(
      // Creates with and without metadata: a transaction each, and a lone insert.
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).runs.create(newRun(`r${i}`, { idempotencyKey: 'k', requestHash: 'h', ...(i % 4 < 2 ? { metadata: { n: `${i}` } } : {}) })),
      ),
    );
    expect(results.filter((r) => r.kind === 'created').length).toBe(1);
    expect(new Set(results.map((r) => ('run' in r ? r.run.id : r.kind))).size).toBe(1);
  });
});
