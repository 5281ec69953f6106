import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../../test/support/postgres.js';
import { openPostgresStorage } from '../../src/store/open-postgres-storage.js';
import { PRINCIPAL_LOCK_CLASS } from '../../src/store/runs/principal-lock.js';
import type { Storage } from '../../src/store/storage.js';
import { eventually } from '../support/eventually.js';
import { newRun } from '../support/new-run.js';

/**
 * On PostgreSQL a principal's creates race on the pool's connections: each takes its turn
 * under the principal's lock, so they take turns one after another rather than read the same
 * line at once and share a turn (which would put all of them before another principal's run).
 */
let database: TestDatabase | undefined;
let storage: Storage | undefined;
beforeAll(async () => {
  if (!postgresAdminUrl) return;
  database = await createTestDatabase();
  storage = await openPostgresStorage(database.url, { log: () => undefined, serverId: 's' });
}, 30_000);
afterAll(async () => {
  await storage?.close();
  await database?.drop();
});

describe("a principal's creates racing on PostgreSQL", () => {
  it.runIf(postgresAdminUrl !== undefined)('wait for its lock, then each takes a turn of its own', async () => {
    const holder = new pg.Client({ connectionString: database!.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [PRINCIPAL_LOCK_CLASS, 'a']);
      // Held here, the creates all reach the database and wait on it together.
      const creates = Array.from({ length: 6 }, (_, i) => storage!.runs.create(newRun(`a${i}`, { creator: { uid: 'a' } })));
      const waiting = async () => Number((await holder.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")).rows[0]!.n);
      await eventually(waiting, (n) => n === 6);
      await holder.query('COMMIT');
      for (const result of await Promise.all(creates)) expect(result.kind).toBe('created');
      const { rows } = await holder.query<{ turn: number }>("SELECT turn FROM runs WHERE creator_uid = 'a' ORDER BY turn");
      expect(rows.map((r) => Number(r.turn))).toEqual([0, 1, 2, 3, 4, 5]);
    } finally {
      await holder.end();
    }
  }, 30_000);
});
