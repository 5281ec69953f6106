/**
 * Tables and indexes of the SQLite store. Every sort has an index ending in `seq`, so a
 * keyset page is an index range scan whatever the number of runs.
 */
export const SQLITE_SCHEMA = `
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
