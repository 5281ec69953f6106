import type pg from 'pg';
import { refuseNewerSchema } from './schema-version.js';

/**
 * One step of the PostgreSQL schema. Steps run in order, once each, each in a transaction;
 * `schema_migrations` records every step applied. Append new steps; never edit a step that
 * has shipped, since databases made by earlier versions have already run it.
 */
export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Any constant would do: every server of a database takes this advisory lock while it
 * migrates, so servers starting together migrate once and the others wait for it.
 */
export const MIGRATION_LOCK_KEY = 0x61676e74;

// The schema of SQLite step 6 in one step. Timestamps stay RFC 3339 text as on SQLite, and
// every text column that is sorted or compared by range is COLLATE "C" (byte order), so
// sorting, cursors and `created_after` behave exactly as there whatever the database's
// locale. Leases alone are `timestamptz`, compared with the database's `now()` so that the
// servers' clocks never matter. Every sort has an index ending in `seq`.
const SCHEMA_V1 = `
CREATE TABLE runs (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  title text COLLATE "C" NOT NULL,
  state text NOT NULL,
  prompt text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  updated_at text COLLATE "C" NOT NULL,
  started_at text COLLATE "C",
  status_message text,
  source text NOT NULL,
  creator_uid text NOT NULL,
  creator text NOT NULL,
  session_id text NOT NULL,
  agent_config text NOT NULL,
  request text NOT NULL,
  config_name text COLLATE "C" NOT NULL DEFAULT '',
  model_id text,
  environment_id text,
  skill_spec text,
  idempotency_key text,
  request_hash text,
  parent_run_id text,
  conversation_id text,
  metadata text,
  mode text,
  interactive boolean,
  agent_identity_uid text,
  schedule_id text,
  skill_id text,
  origin text,
  owner text,
  lease_expires_at timestamptz
);
CREATE UNIQUE INDEX runs_idempotency ON runs(creator_uid, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE UNIQUE INDEX runs_by_session ON runs(session_id);
CREATE INDEX runs_by_updated ON runs(updated_at, seq);
CREATE INDEX runs_by_created ON runs(created_at, seq);
CREATE INDEX runs_by_title ON runs(title, seq);
CREATE INDEX runs_by_agent ON runs(config_name, seq);
CREATE INDEX runs_by_state ON runs(state, updated_at, seq);
CREATE INDEX runs_by_creator ON runs(creator_uid, updated_at, seq);
CREATE INDEX runs_by_parent ON runs(parent_run_id) WHERE parent_run_id IS NOT NULL;
CREATE INDEX runs_by_conversation ON runs(conversation_id, seq) WHERE conversation_id IS NOT NULL;
CREATE INDEX runs_by_schedule ON runs(schedule_id, updated_at, seq) WHERE schedule_id IS NOT NULL;
CREATE INDEX runs_by_environment ON runs(environment_id, created_at) WHERE environment_id IS NOT NULL;
CREATE INDEX runs_by_skill ON runs(skill_id, created_at) WHERE skill_id IS NOT NULL;
CREATE INDEX runs_by_owner ON runs(owner) WHERE owner IS NOT NULL;
CREATE INDEX runs_by_lease ON runs(lease_expires_at) WHERE state = 'INPROGRESS';
CREATE TABLE run_processes (
  id text PRIMARY KEY,
  pgid integer NOT NULL,
  start_time text
);
CREATE TABLE run_metadata (
  run_id text NOT NULL,
  key text NOT NULL,
  value text NOT NULL,
  PRIMARY KEY (run_id, key)
);
CREATE INDEX run_metadata_by_pair ON run_metadata(key, value);
CREATE TABLE run_attachments (
  run_id text NOT NULL,
  position integer NOT NULL,
  file_name text NOT NULL,
  mime_type text NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (run_id, position)
);
CREATE TABLE artifacts (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uid text NOT NULL UNIQUE,
  run_id text NOT NULL,
  artifact_type text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  data text NOT NULL,
  content bytea,
  size_bytes bigint NOT NULL DEFAULT 0
);
CREATE INDEX artifacts_by_run ON artifacts(run_id, seq);
CREATE INDEX artifacts_by_type ON artifacts(artifact_type, run_id);
CREATE TABLE run_messages (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  run_id text NOT NULL,
  kind text NOT NULL,
  text text NOT NULL,
  mode text,
  state text,
  execution integer,
  created_at text COLLATE "C" NOT NULL,
  idempotency_key text
);
CREATE INDEX run_messages_by_run ON run_messages(run_id, seq);
CREATE UNIQUE INDEX run_messages_idempotency ON run_messages(run_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE TABLE run_events (
  run_id text COLLATE "C" NOT NULL,
  id integer NOT NULL,
  kind text NOT NULL,
  data text NOT NULL,
  bytes bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, id)
);
CREATE TABLE run_event_logs (
  run_id text COLLATE "C" PRIMARY KEY,
  last_id integer NOT NULL,
  output_bytes bigint NOT NULL DEFAULT 0,
  dropped_through integer NOT NULL DEFAULT 0,
  dropped_bytes bigint NOT NULL DEFAULT 0,
  run_version text NOT NULL DEFAULT ''
);
CREATE TABLE schedules (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  name text NOT NULL,
  cron_schedule text NOT NULL,
  enabled boolean NOT NULL,
  body text NOT NULL,
  creator text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  updated_at text COLLATE "C" NOT NULL,
  updated_by text NOT NULL,
  last_ran text COLLATE "C",
  next_run text COLLATE "C",
  last_spawn_error text
);
CREATE INDEX schedules_due ON schedules(next_run) WHERE enabled;
CREATE TABLE schedule_firings (
  schedule_id text NOT NULL,
  tick_at text COLLATE "C" NOT NULL,
  fired_at text NOT NULL,
  run_id text,
  error text,
  PRIMARY KEY (schedule_id, tick_at)
);
CREATE TABLE agent_identities (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uid text NOT NULL UNIQUE,
  name text NOT NULL,
  body text NOT NULL,
  creator_uid text NOT NULL,
  created_at text NOT NULL,
  updated_at text NOT NULL
);
CREATE TABLE shared_secrets (
  name text PRIMARY KEY,
  value bytea NOT NULL
);
`;

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [{ version: 1, name: 'runs, events, artifacts, schedules, secrets', sql: SCHEMA_V1 }];

const CREATE_VERSIONS = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Brings the database up to the newest step; refuses a database written by a newer server.
 * Each step runs in its own transaction holding the migration lock, and the version is read
 * again under the lock, so a server that waited for another finds the work done.
 */
export async function migratePostgres(client: pg.ClientBase, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): Promise<void> {
  const newest = migrations.at(-1)?.version ?? 0;
  for (;;) {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await client.query(CREATE_VERSIONS);
      const { rows } = await client.query<{ current: number | null }>('SELECT max(version) AS current FROM schema_migrations');
      const current = rows[0]?.current ?? 0;
      refuseNewerSchema(current, newest);
      const step = migrations.find((m) => m.version > current);
      if (!step) {
        await client.query('COMMIT');
        return;
      }
      await client.query(step.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [step.version, step.name]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}
