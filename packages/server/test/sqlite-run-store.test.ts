import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type NewRun } from '../src/index.js';
import { SqliteRunStore } from '../src/store/runs/sqlite-run-store.js';
import { decodeCursor, encodeCursor } from '../src/store/runs/list-cursor.js';

const at = '2026-01-01T00:00:00.000Z';
const run = (i: number): NewRun => ({
  id: `r${i}`,
  title: 'same title',
  state: 'QUEUED',
  prompt: 'p',
  createdAt: at,
  updatedAt: at,
  startedAt: null,
  statusMessage: null,
  source: 'API',
  creator: { uid: 'u' },
  sessionId: `s${i}`,
  agentConfig: {},
  request: {},
  idempotencyKey: null,
  requestHash: null,
});

describe('the SQLite store', () => {
  it.each([
    ['updated_at', 'desc', ['r4', 'r3', 'r2', 'r1', 'r0']],
    ['created_at', 'asc', ['r0', 'r1', 'r2', 'r3', 'r4']],
    ['title', 'asc', ['r0', 'r1', 'r2', 'r3', 'r4']],
    ['agent', 'desc', ['r4', 'r3', 'r2', 'r1', 'r0']],
  ] as const)('pages through runs with equal %s keys (%s) without skipping or repeating', async (sortBy, sortOrder, expected) => {
    const store = new SqliteRunStore(':memory:');
    store.insertMany(Array.from({ length: 5 }, (_, i) => run(i)));
    const seen: string[] = [];
    let after;
    do {
      const page = await store.list({ limit: 2, sortBy, sortOrder, ...(after ? { after } : {}) });
      seen.push(...page.runs.map((r) => r.id));
      after = page.next;
    } while (after);
    expect(seen).toEqual(expected);
    await store.close();
  });

  it('stores creates that arrive together in one batch, and a run the batch cannot store fails alone, leaving nothing of it', async () => {
    const store = new SqliteRunStore(':memory:');
    const file = { fileName: 'a.txt', mimeType: 'text/plain', data: Buffer.from('a') };
    const keyed = (i: number): NewRun => ({ ...run(i), idempotencyKey: 'k', requestHash: 'h' });
    // A metadata value the driver cannot bind fails after the run's row is written.
    const broken = { ...run(3), metadata: { bad: {} as unknown as string } };
    const results = await Promise.allSettled([
      store.create({ ...run(1), metadata: { team: 'x' }, attachments: [file] }),
      store.create(keyed(2)),
      store.create(broken),
      store.create({ ...keyed(4), sessionId: 's4' }),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value.kind : 'rejected'))).toEqual(['created', 'created', 'rejected', 'replayed']);
    expect(await store.get('r3')).toBeUndefined();
    expect(store.db.prepare("SELECT count(*) FROM run_metadata WHERE run_id = 'r3'").pluck().get()).toBe(0);
    expect((await store.get('r1'))?.metadata).toEqual({ team: 'x' });
    expect((await store.getAttachments('r1')).map((a) => a.fileName)).toEqual(['a.txt']);
    expect((await store.list({ limit: 10, sortBy: 'created_at', sortOrder: 'asc' })).runs.map((r) => r.id)).toEqual(['r1', 'r2']);
    await store.close();
  });

  it('keeps statement journals in memory, so an insert that fires the outbox trigger writes no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-runs-store-'));
    const store = new SqliteRunStore(join(dir, 'runs.sqlite'));
    expect(store.db.pragma('temp_store', { simple: true })).toBe(2);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a create and a transition asked for just before it closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-runs-store-'));
    const file = join(dir, 'runs.sqlite');
    const store = new SqliteRunStore(file);
    store.insertMany([run(1)]);
    const moved = store.transition('r1', { from: ['QUEUED'], to: 'CANCELLED', at });
    const made = store.create(run(2));
    await store.close();
    expect((await moved)?.state).toBe('CANCELLED');
    expect((await made).kind).toBe('created');
    const again = new SqliteRunStore(file);
    expect((await again.get('r1'))?.state).toBe('CANCELLED');
    expect(await again.get('r2')).toBeDefined();
    await again.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('only moves a run from a state it is in', async () => {
    const store = new SqliteRunStore(':memory:');
    store.insertMany([run(1)]);
    expect(await store.transition('r1', { from: ['INPROGRESS'], to: 'SUCCEEDED', at })).toBeUndefined();
    expect((await store.transition('r1', { from: ['QUEUED'], to: 'CANCELLED', at }))?.state).toBe('CANCELLED');
    await store.close();
  });
});

describe('list cursors', () => {
  it('round-trips and rejects what this server did not make', () => {
    const cursor = { sortBy: 'title' as const, sortOrder: 'asc' as const, value: 'a "quoted" title', seq: 42 };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor('!!!')).toBeUndefined();
    expect(decodeCursor(Buffer.from('["title","up","x",1]').toString('base64url'))).toBeUndefined();
    expect(decodeCursor(Buffer.from('["size","asc","x",1]').toString('base64url'))).toBeUndefined();
    expect(decodeCursor(Buffer.from('["title","asc","x",1.5]').toString('base64url'))).toBeUndefined();
  });
});
