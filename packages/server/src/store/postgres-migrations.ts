import type pg from 'pg';
import { addedColumnSteps } from './added-columns.js';
import { ARTIFACTS_TABLE } from './artifacts/artifact-table.js';
import { MESSAGES_TABLE } from './conversations/message-table.js';
import { IDENTITIES_TABLE } from './named-agents/named-agent-table.js';
import { RUN_EVENT_LOGS_TABLE, RUN_EVENTS_TABLE } from './run-events/run-event-tables.js';
import { RUN_ATTACHMENTS_TABLE } from './runs/run-attachment-table.js';
import { RUN_METADATA_TABLE } from './runs/run-metadata-table.js';
import { RUN_PROCESSES_TABLE } from './runs/run-process-table.js';
import { RUNS_BY_CREATOR_CREATED, RUNS_TABLE, RUNS_TURN, RUNS_WORKER_HOST } from './runs/run-table.js';
import { PRINCIPAL_SPEND_TABLE } from './spend/principal-spend-table.js';
import { POSTGRES_LOCKED_RUN_TURNS, POSTGRES_RUN_TURNS, POSTGRES_WEIGHTED_RUN_TURNS } from './runs/run-turns.js';
import { BACKFILL_RUN_COUNTS, POSTGRES_RUN_COUNT_TRIGGERS, PRINCIPAL_RUN_COUNTS_TABLE } from './runs/principal-run-counts.js';
import { PRINCIPAL_TURN_WEIGHTS_TABLE } from './runs/principal-turn-weights.js';
import {
  BACKFILL_CREATE_TOTALS,
  POSTGRES_BACKFILL_CREATES,
  POSTGRES_CREATE_COUNT_TRIGGER,
  POSTGRES_RUNNING_CREATE_COUNT_TRIGGER,
  PRINCIPAL_CREATES_RUNNING_TOTAL,
  PRINCIPAL_CREATES_TABLE,
} from './runs/principal-creates.js';
import { RUN_TOKENS_TABLE } from './run-tokens/run-token-table.js';
import { SCHEDULE_FIRING_LEASE_COLUMNS, SCHEDULE_FIRINGS_TABLE } from './schedules/schedule-firing-table.js';
import { SHARED_SECRETS_TABLE } from './secret-table.js';
import { AGENT_EVENTS_TABLE, AGENT_MESSAGES_TABLE } from './mailbox/mailbox-tables.js';
import { CONNECTED_WORKERS_TABLE } from './workers/connected-worker-table.js';
import { SCHEDULES_TABLE } from './schedules/schedule-table.js';
import { refuseNewerSchema } from './schema-version.js';
import { postgresDialect } from './sql-dialect.js';
import { addColumns, createIndexes, createTable } from './table-schema.js';
import { POSTGRES_WEBHOOK_TRIGGERS_BY_TYPE, POSTGRES_WEBHOOKS } from './webhooks/webhook-schema.js';

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
// servers' clocks never matter. The described tables come from their descriptions
// (table-schema.ts), with every column not marked `added`.
const SCHEMA_V1 = `
${createTable(RUNS_TABLE, postgresDialect, { later: [...RUNS_WORKER_HOST, ...RUNS_TURN, ...RUNS_BY_CREATOR_CREATED] })}
${createTable(RUN_PROCESSES_TABLE, postgresDialect)}
${createTable(RUN_METADATA_TABLE, postgresDialect)}
${createTable(RUN_ATTACHMENTS_TABLE, postgresDialect)}
${createTable(ARTIFACTS_TABLE, postgresDialect)}
${createTable(MESSAGES_TABLE, postgresDialect)}
${createTable(RUN_EVENTS_TABLE, postgresDialect)}
${createTable(RUN_EVENT_LOGS_TABLE, postgresDialect)}
${createTable(SCHEDULES_TABLE, postgresDialect)}
${createTable(SCHEDULE_FIRINGS_TABLE, postgresDialect, { later: SCHEDULE_FIRING_LEASE_COLUMNS })}
${createTable(IDENTITIES_TABLE, postgresDialect)}
${createTable(SHARED_SECRETS_TABLE, postgresDialect)}
`;

// The event append of PostgresRunEventStore in one call, so a batch costs one round trip
// rather than a transaction of seven. The rules are the store's (see there): heads locked in
// run id order, a run event whose version the log already shows skipped, ids without gaps,
// the oldest output dropped past the bound (never the newest chunk) and counted, and each
// run's new last id sent on the agent_runs channel on commit.
const APPEND_EVENTS_V2 = `
CREATE FUNCTION agent_runs_append_events(
  p_run_ids text[], p_kinds text[], p_data text[], p_bytes bigint[], p_versions text[], p_output_limit bigint, p_from text
) RETURNS TABLE (ord integer, id integer) LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  kept_ords integer[];
  kept_ids integer[];
  head record;
  chunk record;
  newest integer;
  left_bytes bigint;
  doomed integer[];
  doomed_bytes bigint;
BEGIN
  INSERT INTO run_event_logs (run_id, last_id)
    SELECT DISTINCT r COLLATE "C", 0 FROM unnest(p_run_ids) AS r ORDER BY 1 ON CONFLICT DO NOTHING;
  PERFORM 1 FROM run_event_logs l WHERE l.run_id = ANY(p_run_ids) ORDER BY l.run_id FOR UPDATE;

  WITH given AS (
    SELECT e.run_id COLLATE "C" AS run_id, e.kind, e.data, e.bytes, e.version, e.ord::integer AS ord,
      -- The run versions given before each event, so the version the log shows just before it is known.
      array_agg(e.version) FILTER (WHERE e.version IS NOT NULL)
        OVER (PARTITION BY e.run_id ORDER BY e.ord ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS earlier
    FROM unnest(p_run_ids, p_kinds, p_data, p_bytes, p_versions) WITH ORDINALITY AS e(run_id, kind, data, bytes, version, ord)
  ), kept AS (
    SELECT g.run_id, g.kind, g.data, g.bytes, g.version, g.ord,
      l.last_id + row_number() OVER (PARTITION BY g.run_id ORDER BY g.ord) AS new_id
    FROM given g JOIN run_event_logs l ON l.run_id = g.run_id
    WHERE g.version IS NULL OR g.version <> COALESCE(g.earlier[cardinality(g.earlier)], l.run_version)
  ), stored AS (
    INSERT INTO run_events (run_id, id, kind, data, bytes) SELECT k.run_id, k.new_id, k.kind, k.data, k.bytes FROM kept k
  ), heads AS (
    UPDATE run_event_logs l SET last_id = t.last_id, output_bytes = l.output_bytes + t.bytes, run_version = COALESCE(t.version, l.run_version)
    FROM (SELECT k.run_id, max(k.new_id) AS last_id, sum(k.bytes) AS bytes,
            (array_agg(k.version ORDER BY k.ord DESC) FILTER (WHERE k.version IS NOT NULL))[1] AS version
          FROM kept k GROUP BY k.run_id) t
    WHERE l.run_id = t.run_id
  )
  SELECT array_agg(k.ord ORDER BY k.ord), array_agg(k.new_id::integer ORDER BY k.ord) INTO kept_ords, kept_ids FROM kept k;

  -- Past the bound: the oldest output goes, oldest first, until what is kept fits; the newest chunk stays.
  FOR head IN SELECT l.run_id, l.output_bytes FROM run_event_logs l
      WHERE l.run_id = ANY(p_run_ids) AND l.output_bytes > p_output_limit ORDER BY l.run_id LOOP
    SELECT max(e.id) INTO newest FROM run_events e WHERE e.run_id = head.run_id AND e.kind = 'output';
    left_bytes := head.output_bytes;
    doomed := '{}';
    doomed_bytes := 0;
    FOR chunk IN SELECT e.id, e.bytes FROM run_events e
        WHERE e.run_id = head.run_id AND e.kind = 'output' AND e.id < newest ORDER BY e.id LOOP
      EXIT WHEN left_bytes <= p_output_limit;
      doomed := doomed || chunk.id;
      doomed_bytes := doomed_bytes + chunk.bytes;
      left_bytes := left_bytes - chunk.bytes;
    END LOOP;
    IF cardinality(doomed) > 0 THEN
      DELETE FROM run_events e WHERE e.run_id = head.run_id AND e.id = ANY(doomed);
      UPDATE run_event_logs l SET output_bytes = l.output_bytes - doomed_bytes, dropped_bytes = l.dropped_bytes + doomed_bytes,
        dropped_through = greatest(l.dropped_through, doomed[cardinality(doomed)])
      WHERE l.run_id = head.run_id;
    END IF;
  END LOOP;

  PERFORM pg_notify('agent_runs', json_build_object('kind', 'events', 'runId', l.run_id, 'lastId', l.last_id, 'from', p_from)::text)
  FROM run_event_logs l WHERE l.run_id = ANY(p_run_ids) ORDER BY l.run_id;

  RETURN QUERY SELECT * FROM unnest(kept_ords, kept_ids);
END
$fn$;
`;

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  { version: 1, name: 'runs, events, artifacts, schedules, secrets', sql: SCHEMA_V1 },
  { version: 2, name: 'event append in one call', sql: APPEND_EVENTS_V2 },
  { version: 3, name: 'webhooks', sql: POSTGRES_WEBHOOKS },
  // Then the columns marked `added` in the table descriptions, one step each (a step written
  // by hand later comes after all of them and is numbered past them).
  ...addedColumnSteps(postgresDialect, 3),
  { version: 4 + addedColumnSteps(postgresDialect, 3).length, name: 'webhook triggers by event type', sql: POSTGRES_WEBHOOK_TRIGGERS_BY_TYPE },
  // SQLite keeps its leases in memory (sqlite-leases.ts): PostgreSQL's are in the rows.
  {
    version: 5 + addedColumnSteps(postgresDialect, 3).length,
    name: 'schedule firing leases',
    sql: 'ALTER TABLE schedule_firings ADD COLUMN lease_owner text, ADD COLUMN lease_expires_at timestamptz',
  },
  // Where each run executes (its worker_host), and the index a claim of one host's runs walks.
  {
    version: 6 + addedColumnSteps(postgresDialect, 3).length,
    name: 'runs routed to self-hosted workers, and the workers connected',
    sql: `${addColumns(RUNS_TABLE, postgresDialect, ['worker_host'])}${createIndexes(RUNS_TABLE, postgresDialect, ['runs_by_worker_host'])}${createTable(CONNECTED_WORKERS_TABLE, postgresDialect)}`,
  },
  // Fair turns between principals: each queued run's turn, set by the database (run-turns.ts), and the claim's index.
  {
    version: 7 + addedColumnSteps(postgresDialect, 3).length,
    name: 'fair turns between principals',
    sql: `${addColumns(RUNS_TABLE, postgresDialect, ['turn'])}${createIndexes(RUNS_TABLE, postgresDialect, ['runs_by_turn', 'runs_queued_by_creator'])}${POSTGRES_RUN_TURNS}`,
  },
  // The run-to-run mailbox and the lifecycle event feed.
  {
    version: 8 + addedColumnSteps(postgresDialect, 3).length,
    name: 'agent messages and events',
    sql: `${createTable(AGENT_MESSAGES_TABLE, postgresDialect)}\n${createTable(AGENT_EVENTS_TABLE, postgresDialect)}`,
  },
  // Each principal's spend per UTC day, which its spend_per_day_usd quota holds; the index its creates_per_minute counts walk.
  {
    version: 9 + addedColumnSteps(postgresDialect, 3).length,
    name: 'daily spend per principal',
    sql: `${createTable(PRINCIPAL_SPEND_TABLE, postgresDialect)}${createIndexes(RUNS_TABLE, postgresDialect, RUNS_BY_CREATOR_CREATED)}`,
  },
  // Each principal's held runs and creates of the last minute as counters its quotas read: the triggers first (they
  // lock runs against writes until the step commits), then the counts of the runs there already, so no write falls between.
  {
    version: 10 + addedColumnSteps(postgresDialect, 3).length,
    name: 'held runs counted per principal',
    sql: `${createTable(PRINCIPAL_RUN_COUNTS_TABLE, postgresDialect)}${POSTGRES_RUN_COUNT_TRIGGERS}${BACKFILL_RUN_COUNTS}${createTable(PRINCIPAL_CREATES_TABLE, postgresDialect, { later: PRINCIPAL_CREATES_RUNNING_TOTAL })}${POSTGRES_CREATE_COUNT_TRIGGER}${POSTGRES_BACKFILL_CREATES}`,
  },
  // The weights of fair turns, and the turn that reads them.
  {
    version: 11 + addedColumnSteps(postgresDialect, 3).length,
    name: 'weighted fair turns',
    sql: `${createTable(PRINCIPAL_TURN_WEIGHTS_TABLE, postgresDialect)}${POSTGRES_WEIGHTED_RUN_TURNS}`,
  },
  // The digests of the run tokens in use, which every server of the database honours (a token minted by one used against another).
  {
    version: 12 + addedColumnSteps(postgresDialect, 3).length,
    name: 'run tokens',
    sql: createTable(RUN_TOKENS_TABLE, postgresDialect),
  },
  // A principal's creates racing on several connections take turns one after another, not one turn together.
  {
    version: 13 + addedColumnSteps(postgresDialect, 3).length,
    name: 'turns taken under the principal lock',
    sql: POSTGRES_LOCKED_RUN_TURNS,
  },
  // Running totals in the creates' slots, so a creates_per_minute check seeks two rows instead of summing 60. Runs
  // are locked against writes first, until the step commits, so no create is counted by the old function after it.
  {
    version: 14 + addedColumnSteps(postgresDialect, 3).length,
    name: 'running totals of creates',
    sql: `LOCK TABLE runs IN SHARE ROW EXCLUSIVE MODE;\n${addColumns(PRINCIPAL_CREATES_TABLE, postgresDialect, ['total'])}${POSTGRES_RUNNING_CREATE_COUNT_TRIGGER}${createIndexes(PRINCIPAL_CREATES_TABLE, postgresDialect, ['principal_creates_by_second'])}${BACKFILL_CREATE_TOTALS}`,
  },
];

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
      // A step may take long on a big database, and waiting for another server's step is fine:
      // the pool's statement timeout does not apply here.
      await client.query('SET LOCAL statement_timeout = 0');
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
