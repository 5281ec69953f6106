import type Database from 'better-sqlite3';
import { addedColumnSteps } from './added-columns.js';
import { refuseNewerSchema } from './schema-version.js';
import { sqliteDialect } from './sql-dialect.js';
import { SQLITE_WEBHOOK_PAYLOADS, SQLITE_WEBHOOK_TRIGGERS_BY_TYPE, SQLITE_WEBHOOKS } from './webhook-schema.js';

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

// What an agent made (artifacts, with the bytes of files and screenshots) and what was said
// to it and by it (the prompt is the run's; follow-ups and each execution's result are here).
const ARTIFACTS_AND_CONVERSATION_V3 = `
CREATE TABLE artifacts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  uid TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL,
  artifact_type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL,
  content BLOB,
  size_bytes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX artifacts_by_run ON artifacts(run_id, seq);
CREATE INDEX artifacts_by_type ON artifacts(artifact_type, run_id);
CREATE TABLE run_messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  mode TEXT,
  state TEXT,
  execution INTEGER,
  created_at TEXT NOT NULL,
  idempotency_key TEXT
);
CREATE INDEX run_messages_by_run ON run_messages(run_id, seq);
CREATE UNIQUE INDEX run_messages_idempotency ON run_messages(run_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
`;

// The create fields of the newest service. Metadata is kept twice: as JSON on the run for
// reads, and one row per key for `metadata[key]=value` filters. Attachments live apart
// from the run so that listing runs never reads their bytes.
const RUN_CREATE_FIELDS_V4 = `
ALTER TABLE runs ADD COLUMN parent_run_id TEXT;
ALTER TABLE runs ADD COLUMN conversation_id TEXT;
ALTER TABLE runs ADD COLUMN metadata TEXT;
ALTER TABLE runs ADD COLUMN mode TEXT;
ALTER TABLE runs ADD COLUMN interactive INTEGER;
ALTER TABLE runs ADD COLUMN agent_identity_uid TEXT;
ALTER TABLE runs ADD COLUMN schedule_id TEXT;
CREATE INDEX runs_by_parent ON runs(parent_run_id) WHERE parent_run_id IS NOT NULL;
CREATE INDEX runs_by_conversation ON runs(conversation_id, seq) WHERE conversation_id IS NOT NULL;
CREATE INDEX runs_by_schedule ON runs(schedule_id, updated_at, seq) WHERE schedule_id IS NOT NULL;
CREATE TABLE run_metadata (
  run_id TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE INDEX run_metadata_by_pair ON run_metadata(key, value);
CREATE TABLE run_attachments (
  run_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  file_name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  data BLOB NOT NULL,
  UNIQUE (run_id, position)
);
`;

// A run's events (state changes and the agent's output in chunks), numbered per run.
// `run_event_logs` keeps each run's last id, the output bytes kept and what the bound
// dropped. The single output text of version 1 becomes each run's first output event.
const RUN_EVENTS_V5 = `
CREATE TABLE run_events (
  run_id TEXT NOT NULL,
  id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  data TEXT NOT NULL,
  bytes INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
CREATE TABLE run_event_logs (
  run_id TEXT PRIMARY KEY,
  last_id INTEGER NOT NULL,
  output_bytes INTEGER NOT NULL DEFAULT 0,
  dropped_through INTEGER NOT NULL DEFAULT 0,
  dropped_bytes INTEGER NOT NULL DEFAULT 0,
  run_version TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
INSERT INTO run_events (run_id, id, kind, data, bytes)
  SELECT o.id, 1, 'output', json_object('stream', 'stdout', 'text', o.output, 'at', r.updated_at), length(CAST(o.output AS BLOB))
  FROM run_outputs o JOIN runs r ON r.id = o.id WHERE o.output <> '';
INSERT INTO run_event_logs (run_id, last_id, output_bytes) SELECT run_id, id, bytes FROM run_events;
DROP TABLE run_outputs;
`;

// What runs start from: the skill a run resolved to (for the skills' last run), what it
// started from as shown on it (schedule, skill), schedules with their firings, named agents.
// The schedule_id column and index are step 4's.
const SOURCES_V6 = `
ALTER TABLE runs ADD COLUMN skill_id TEXT;
ALTER TABLE runs ADD COLUMN origin TEXT;
CREATE INDEX runs_by_environment ON runs(environment_id, created_at) WHERE environment_id IS NOT NULL;
CREATE INDEX runs_by_skill ON runs(skill_id, created_at) WHERE skill_id IS NOT NULL;
CREATE TABLE schedules (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  cron_schedule TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  body TEXT NOT NULL,
  creator TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL,
  last_ran TEXT,
  next_run TEXT,
  last_spawn_error TEXT
);
CREATE INDEX schedules_due ON schedules(next_run) WHERE enabled = 1;
CREATE TABLE schedule_firings (
  schedule_id TEXT NOT NULL,
  tick_at TEXT NOT NULL,
  fired_at TEXT NOT NULL,
  run_id TEXT,
  error TEXT,
  PRIMARY KEY (schedule_id, tick_at)
) WITHOUT ROWID;
CREATE TABLE agent_identities (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  uid TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  body TEXT NOT NULL,
  creator_uid TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;

export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  { version: 1, name: 'runs', sql: RUNS_V1 },
  { version: 2, name: 'run processes', sql: RUN_PROCESSES_V2 },
  { version: 3, name: 'artifacts and conversation', sql: ARTIFACTS_AND_CONVERSATION_V3 },
  { version: 4, name: 'run create fields', sql: RUN_CREATE_FIELDS_V4 },
  { version: 5, name: 'run events', sql: RUN_EVENTS_V5 },
  { version: 6, name: 'schedules, named agents, run origins', sql: SOURCES_V6 },
  { version: 7, name: 'webhooks', sql: SQLITE_WEBHOOKS },
  // Then the columns marked `added` in the table descriptions, one step each (a step written
  // by hand later comes after all of them and is numbered past them).
  ...addedColumnSteps(sqliteDialect, 7),
  { version: 8 + addedColumnSteps(sqliteDialect, 7).length, name: 'webhook triggers by event type', sql: SQLITE_WEBHOOK_TRIGGERS_BY_TYPE },
  { version: 9 + addedColumnSteps(sqliteDialect, 7).length, name: 'webhook payloads once per event', sql: SQLITE_WEBHOOK_PAYLOADS },
];

/** Brings the database up to the newest step; refuses a file written by a newer server. */
export function migrateSqlite(db: Database.Database, migrations: readonly SqliteMigration[] = SQLITE_MIGRATIONS): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const newest = migrations.at(-1)?.version ?? 0;
  refuseNewerSchema(current, newest);
  for (const step of migrations) {
    if (step.version <= current) continue;
    db.transaction(() => {
      db.exec(step.sql);
      db.pragma(`user_version = ${step.version}`);
    })();
  }
}
