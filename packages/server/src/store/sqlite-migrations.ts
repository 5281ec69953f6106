import type Database from 'better-sqlite3';

/**
 * One step of the SQLite schema. Steps run in order, once each, inside a transaction;
 * `PRAGMA user_version` records the last one applied. Append new steps; never edit a
 * step that has shipped, since data files made by earlier versions have already run it.
 */
export interface SqliteMigration {
  version: number;
  name: string;
  sql: string;
}

// Every sort has an index ending in `seq`, so a keyset page is an index range scan
// whatever the number of runs. `IF NOT EXISTS` lets files made before versioning adopt it.
const RUNS_V1 = `
CREATE TABLE IF NOT EXISTS runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  state TEXT NOT NULL,
  prompt TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  started_at TEXT,
  status_message TEXT,
  source TEXT NOT NULL,
  creator_uid TEXT NOT NULL,
  creator TEXT NOT NULL,
  session_id TEXT NOT NULL,
  agent_config TEXT NOT NULL,
  request TEXT NOT NULL,
  config_name TEXT NOT NULL DEFAULT '',
  model_id TEXT,
  environment_id TEXT,
  skill_spec TEXT,
  idempotency_key TEXT,
  request_hash TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS runs_idempotency ON runs(creator_uid, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS runs_by_session ON runs(session_id);
CREATE INDEX IF NOT EXISTS runs_by_updated ON runs(updated_at, seq);
CREATE INDEX IF NOT EXISTS runs_by_created ON runs(created_at, seq);
CREATE INDEX IF NOT EXISTS runs_by_title ON runs(title, seq);
CREATE INDEX IF NOT EXISTS runs_by_agent ON runs(config_name, seq);
CREATE INDEX IF NOT EXISTS runs_by_state ON runs(state, updated_at, seq);
CREATE INDEX IF NOT EXISTS runs_by_creator ON runs(creator_uid, updated_at, seq);
CREATE TABLE IF NOT EXISTS run_outputs (
  id TEXT PRIMARY KEY,
  output TEXT NOT NULL
) WITHOUT ROWID;
`;

// The process group of each run's agent and its leader's start time, so a server started
// after a crash can end the agents the dead one left running, and no process that merely
// reuses the pid.
const RUN_PROCESSES_V2 = `
CREATE TABLE IF NOT EXISTS run_processes (
  id TEXT PRIMARY KEY,
  pgid INTEGER NOT NULL,
  start_time TEXT
) WITHOUT ROWID;
`;

export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  { version: 1, name: 'runs', sql: RUNS_V1 },
  { version: 2, name: 'run processes', sql: RUN_PROCESSES_V2 },
];

/** Brings the database up to the newest step; refuses a file written by a newer server. */
export function migrateSqlite(db: Database.Database, migrations: readonly SqliteMigration[] = SQLITE_MIGRATIONS): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const newest = migrations.at(-1)?.version ?? 0;
  if (current > newest) {
    throw new Error(
      `The database was written by a newer server (schema version ${current}; this server knows up to ${newest}). Upgrade the server.`,
    );
  }
  for (const step of migrations) {
    if (step.version <= current) continue;
    db.transaction(() => {
      db.exec(step.sql);
      db.pragma(`user_version = ${step.version}`);
    })();
  }
}
