import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../../test/support/postgres.js';
import type { LeasedTable } from '../../src/store/leased-table.js';
import type { Leases } from '../../src/store/leases.js';
import { PostgresLeases } from '../../src/store/postgres-leases.js';
import { SqliteLeases } from '../../src/store/sqlite-leases.js';
import { openDatabase } from '../../src/store/sqlite-driver.js';

/** A table of its own: open rows are due and held, a closed one is neither. */
const PROBES: LeasedTable = {
  name: 'probes',
  alias: 'p',
  key: ['id'],
  keyType: 'text',
  owner: 'owner',
  expiresAt: 'lease_expires_at',
  clock: 'database',
  held: "p.state = 'open'",
  due: "p.state = 'open'",
  order: 'p.id',
  columns: 'p.id',
};

type Probe = { id: string };

interface Dialect {
  name: string;
  enabled: boolean;
  open(ids: readonly string[]): Promise<{ leases: Leases<Probe>; close(id: string): Promise<void> }>;
}

let database: TestDatabase | undefined;
let pool: pg.Pool | undefined;
beforeAll(async () => {
  if (!postgresAdminUrl) return;
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // An idle connection the server drops (a busy machine's cluster under every suite at once)
  // makes the pool emit 'error'; unheard, that is an uncaught exception in the file. The pool
  // has already discarded that connection and the next query opens another, as the store's own
  // pools do (open-postgres-storage.ts).
  pool.on('error', () => {});
}, 30_000);
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

const usedPool = (): pg.Pool => {
  if (!pool) throw new Error('no PostgreSQL pool: the PostgreSQL cases run only with AGENT_RUNS_TEST_DATABASE_URL');
  return pool;
};

const dialects: Dialect[] = [
  {
    name: 'SQLite',
    enabled: true,
    open: async (ids) => {
      // The driver the server uses on this Node.
      const db = openDatabase(':memory:');
      db.exec("CREATE TABLE probes (id TEXT PRIMARY KEY, state TEXT NOT NULL DEFAULT 'open')");
      for (const id of ids) db.prepare('INSERT INTO probes (id) VALUES (?)').run(id);
      const read = (row: Record<string, unknown>) => ({ id: String(row['id']) });
      return { leases: new SqliteLeases(db, PROBES, read), close: async (id) => void db.prepare("UPDATE probes SET state = 'closed' WHERE id = ?").run(id) };
    },
  },
  {
    name: 'PostgreSQL',
    enabled: postgresAdminUrl !== undefined,
    open: async (ids) => {
      const pool = usedPool();
      await pool.query('DROP TABLE IF EXISTS probes');
      await pool.query("CREATE TABLE probes (id text PRIMARY KEY, state text NOT NULL DEFAULT 'open', owner text, lease_expires_at timestamptz)");
      await pool.query('INSERT INTO probes (id) SELECT unnest($1::text[])', [ids]);
      const read = (row: Record<string, unknown>) => ({ id: String(row['id']) });
      return { leases: new PostgresLeases(pool, PROBES, read), close: async (id) => void (await pool.query("UPDATE probes SET state = 'closed' WHERE id = $1", [id])) };
    },
  },
];

const ids = (rows: readonly Probe[]) => rows.map((r) => r.id).sort();
const claim = (leases: Leases<Probe>, owner: string, limit: number, leaseMs = 30_000) => leases.claim({ owner, leaseMs, limit }).then(ids);

describe.each(dialects)('leases on $name', ({ enabled, open }) => {
  it.runIf(enabled)('leases each due row to one owner at a time, in order, at most the limit', async () => {
    const { leases } = await open(['a', 'b', 'c']);
    expect(await claim(leases, 'one', 2)).toEqual(['a', 'b']);
    expect(await claim(leases, 'two', 5)).toEqual(['c']);
    expect(await claim(leases, 'two', 5)).toEqual([]);
    expect(await claim(leases, 'one', 5)).toEqual([]);
  });

  it.runIf(enabled)('leases what a choice picks of the rows read', async () => {
    const { leases } = await open(['a', 'b', 'c']);
    const chosen = await leases.claim({ owner: 'one', leaseMs: 30_000, limit: 1, scan: 3, choose: (due) => due.filter((r) => r.id !== 'a') });
    expect(ids(chosen)).toEqual(['b']);
    expect(await claim(leases, 'two', 5)).toEqual(['a', 'c']);
  });

  it.runIf(enabled)('renews only the leases of its owner on rows still held, and those asked for', async () => {
    const { leases, close } = await open(['a', 'b', 'c']);
    await claim(leases, 'one', 2);
    await claim(leases, 'two', 1);
    expect((await leases.renew('one', 30_000)).sort()).toEqual(['a', 'b']);
    expect(await leases.renew('two', 30_000)).toEqual(['c']);
    expect(await leases.renew('one', 30_000, { keys: ['a', 'c'] })).toEqual(['a']);
    await close('b');
    expect(await leases.renew('one', 30_000)).toEqual(['a']);
  });

  it.runIf(enabled)('adopts held rows for a new owner, whoever held them: its renewals hold them, the former owner\'s do not', async () => {
    const { leases, close } = await open(['a', 'b', 'c']);
    await claim(leases, 'one', 2);
    await close('c');
    await leases.adopt('two', ['a', 'c'], 30_000);
    expect(await leases.holder('a')).toBe('two');
    // c is no longer held: there is nothing of it to adopt.
    expect(await leases.holder('c')).toBeUndefined();
    expect(await leases.renew('two', 30_000)).toEqual(['a']);
    expect(await leases.renew('one', 30_000)).toEqual(['b']);
  });

  it.runIf(enabled)('lets go of the leases released, for the next claim to take', async () => {
    const { leases } = await open(['a', 'b', 'c']);
    await claim(leases, 'one', 3);
    await leases.release('one', ['a']);
    expect(await claim(leases, 'two', 5)).toEqual(['a']);
    await leases.release('one');
    expect(await claim(leases, 'two', 5)).toEqual(['b', 'c']);
    await leases.release();
    expect(await claim(leases, 'one', 5)).toEqual(['a', 'b', 'c']);
  });

  it.runIf(enabled)('takes over a lease that ran out: its owner is told, and the next claim takes the row', async () => {
    const { leases, close } = await open(['a', 'b', 'c']);
    await claim(leases, 'one', 2, 1000);
    await claim(leases, 'two', 1);
    await close('b');
    expect(await claim(leases, 'two', 5)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // b is no longer held: its lease is nothing to take over.
    expect(await leases.takeOverExpired(async (expired) => expired)).toEqual([{ key: 'a', owner: 'one' }]);
    expect(await claim(leases, 'two', 5)).toEqual(['a']);
    expect((await leases.renew('two', 30_000)).sort()).toEqual(['a', 'c']);
    expect(await leases.renew('one', 30_000)).toEqual([]);
  });
});
