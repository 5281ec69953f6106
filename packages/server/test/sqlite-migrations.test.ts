import { describe, expect, it } from 'vitest';
import { migrateSqlite, SQLITE_MIGRATIONS } from '../src/store/sqlite-migrations.js';
import { openDatabase } from '../src/store/sqlite-driver.js';
import { addedColumnSteps } from '../src/store/added-columns.js';
import { postgresDialect, sqliteDialect } from '../src/store/sql-dialect.js';
import type { TableDescription } from '../src/store/table-description.js';

const steps = [
  { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER);' },
  { version: 2, name: 'b', sql: 'ALTER TABLE a ADD COLUMN y TEXT;' },
];

describe('SQLite migrations', () => {
  it('applies each step once and records the newest version', () => {
    const db = openDatabase(':memory:');
    migrateSqlite(db, steps.slice(0, 1));
    migrateSqlite(db, steps);
    migrateSqlite(db, steps);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare('SELECT name FROM pragma_table_info(?)').all('a')).toEqual([{ name: 'x' }, { name: 'y' }]);
  });

  it('adds the columns a table description marks as added, one step each after the written ones, in both dialects', () => {
    const table: TableDescription<{ x: number }, { x: number }> = {
      name: 'a',
      columns: [
        { name: 'x', type: 'integer', write: (r) => r.x, read: 'x' },
        { name: 'flag', type: 'boolean', added: 2 },
        { name: 'team', type: 'text', added: 1 },
      ],
    };
    const sqlite = addedColumnSteps(sqliteDialect, 1, [table]);
    expect(sqlite).toEqual([
      { version: 2, name: 'a.team', sql: 'ALTER TABLE a ADD COLUMN team TEXT' },
      { version: 3, name: 'a.flag', sql: 'ALTER TABLE a ADD COLUMN flag INTEGER' },
    ]);
    expect(addedColumnSteps(postgresDialect, 2, [table]).map((step) => [step.version, step.sql])).toEqual([
      [3, 'ALTER TABLE a ADD COLUMN team text'],
      [4, 'ALTER TABLE a ADD COLUMN flag boolean'],
    ]);
    const db = openDatabase(':memory:');
    migrateSqlite(db, [steps[0]!, ...sqlite]);
    migrateSqlite(db, [steps[0]!, ...sqlite]);
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    expect(db.prepare('SELECT name FROM pragma_table_info(?)').all('a')).toEqual([{ name: 'x' }, { name: 'team' }, { name: 'flag' }]);
  });

  it('refuses added columns numbered with a gap, since each number is a shipped step', () => {
    const table: TableDescription<never, never> = { name: 'a', columns: [{ name: 'team', type: 'text', added: 2 }] };
    expect(() => addedColumnSteps(sqliteDialect, 6, [table])).toThrow(/a\.team: added columns are numbered 1, 2/);
  });

  it('rolls a failing step back whole and leaves the version where it was', () => {
    const db = openDatabase(':memory:');
    migrateSqlite(db, steps.slice(0, 1));
    const broken = [...steps.slice(0, 1), { version: 2, name: 'bad', sql: 'CREATE TABLE c (z INTEGER); SELECT * FROM missing;' }];
    expect(() => migrateSqlite(db, broken)).toThrow(/missing/);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'c'").all()).toEqual([]);
  });

  it('refuses a database written by a newer server', () => {
    const db = openDatabase(':memory:');
    db.pragma('user_version = 99');
    expect(() => migrateSqlite(db)).toThrow(/newer server \(schema version 99/);
  });

  it('adopts a data file made before versioning without losing its runs', () => {
    const db = openDatabase(':memory:');
    db.exec(SQLITE_MIGRATIONS[0]!.sql);
    db.prepare(
      "INSERT INTO runs (id, title, state, prompt, created_at, updated_at, source, creator_uid, creator, session_id, agent_config, request) VALUES ('r', 't', 'QUEUED', 'p', 'c', 'u', 'API', '', '{}', 's', '{}', '{}')",
    ).run();
    migrateSqlite(db);
    expect(db.prepare('SELECT count(*) AS n FROM runs').get()).toEqual({ n: 1 });
  });
});

describe('the run events migration', () => {
  it('turns the single output text of an existing run into its first output event', async () => {
    const { SqliteRunEventStore } = await import('../src/store/run-events/sqlite-run-event-store.js');
    const db = openDatabase(':memory:');
    db.exec(SQLITE_MIGRATIONS[0]!.sql);
    db.pragma('user_version = 1');
    db.prepare(
      "INSERT INTO runs (id, title, state, prompt, created_at, updated_at, source, creator_uid, creator, session_id, agent_config, request) VALUES ('r', 't', 'SUCCEEDED', 'p', 'c', '2026-01-01T00:00:00.000Z', 'API', '', '{}', 's', '{}', '{}')",
    ).run();
    db.prepare("INSERT INTO run_outputs (id, output) VALUES ('r', 'hello\nworld\n')").run();
    migrateSqlite(db);
    const events = new SqliteRunEventStore(db);
    expect(await events.after('r', 0, 10)).toEqual([
      { runId: 'r', id: 1, kind: 'output', data: JSON.stringify({ stream: 'stdout', text: 'hello\nworld\n', at: '2026-01-01T00:00:00.000Z' }) },
    ]);
    expect(await events.head('r')).toMatchObject({ lastId: 1, outputBytes: 12 });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'run_outputs'").all()).toEqual([]);
  });
});
