import type Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../src/store/sqlite-driver.js';
import { SqliteWriteBatch } from '../src/store/sqlite-write-batch.js';

let db: Database.Database;
let batch: SqliteWriteBatch;

beforeEach(() => {
  db = openDatabase(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  batch = new SqliteWriteBatch(db);
});
afterEach(() => db.close());

const insert = (id: number, v: string | null) => () => {
  db.prepare('INSERT INTO t (id, v) VALUES (?, ?)').run(id, v);
  return { id, inTransaction: db.inTransaction };
};

it('commits the writes asked for in one turn in one transaction, and a lone write on its own', async () => {
  const together = await Promise.all([batch.run(insert(1, 'a')), batch.run(insert(2, 'b')), batch.run(insert(3, 'c'))]);
  expect(together).toEqual([1, 2, 3].map((id) => ({ id, inTransaction: true })));
  expect(await batch.run(insert(4, 'd'))).toEqual({ id: 4, inTransaction: false });
  expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 4 });
});

it('does not make a write before the turn ends, so it is answered only once committed', async () => {
  const written = batch.run(insert(1, 'a'));
  expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
  await written;
  expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
});

it('fails only the write that fails: its neighbours in the batch are made and answered', async () => {
  const results = await Promise.allSettled([batch.run(insert(1, 'a')), batch.run(insert(2, null)), batch.run(insert(3, 'c'))]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect((results[1] as PromiseRejectedResult).reason.code).toBe('SQLITE_CONSTRAINT_NOTNULL');
  expect(db.prepare('SELECT id FROM t ORDER BY id').all()).toEqual([{ id: 1 }, { id: 3 }]);
});

it('makes a lone write, or each write of a failed batch, the way it is made alone', async () => {
  const alone = (id: number, v: string | null) => () => ({ ...insert(id, v)(), alone: true });
  expect(await batch.run(insert(1, 'a'), alone(1, 'a'))).toEqual({ id: 1, inTransaction: false, alone: true });
  const results = await Promise.allSettled([batch.run(insert(2, 'b'), alone(2, 'b')), batch.run(insert(3, null), alone(3, null))]);
  expect(results[0]).toEqual({ status: 'fulfilled', value: { id: 2, inTransaction: false, alone: true } });
  expect(results[1]!.status).toBe('rejected');
});

it('makes the writes still waiting when flushed, as before the database closes', async () => {
  const written = batch.run(insert(1, 'a'));
  batch.flush();
  expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
  db.close();
  await expect(written).resolves.toEqual({ id: 1, inTransaction: false });
  db = openDatabase(':memory:');
});
