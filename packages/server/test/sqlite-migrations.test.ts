import { describe, expect, it } from 'vitest';
import { migrateSqlite, SQLITE_MIGRATIONS } from '../src/store/sqlite-migrations.js';
import { openDatabase } from '../src/store/sqlite-driver.js';

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
    const { SqliteRunEventStore } = await import('../src/store/sqlite-run-event-store.js');
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
