import type Database from 'better-sqlite3';
import { addedColumnSteps } from './added-columns.js';
import { ARTIFACTS_TABLE } from './artifacts/artifact-table.js';
import { MESSAGES_TABLE } from './conversations/message-table.js';
import { IDENTITIES_TABLE } from './named-agents/named-agent-table.js';
import { RUN_EVENT_LOGS_TABLE, RUN_EVENTS_TABLE } from './run-events/run-event-tables.js';
import { RUN_ATTACHMENTS_TABLE } from './runs/run-attachment-table.js';
import { RUN_METADATA_TABLE } from './runs/run-metadata-table.js';
import { RUN_OUTPUTS_TABLE } from './runs/run-output-table.js';
import { RUN_PROCESSES_TABLE } from './runs/run-process-table.js';
import { RUNS_BY_CREATOR_CREATED, RUNS_TABLE, RUNS_TURN, RUNS_WORKER_HOST } from './runs/run-table.js';
import { PRINCIPAL_SPEND_TABLE } from './spend/principal-spend-table.js';
import { SQLITE_RUN_TURNS, SQLITE_WEIGHTED_RUN_TURNS } from './runs/run-turns.js';
import { BACKFILL_RUN_COUNTS, PRINCIPAL_RUN_COUNTS_TABLE, SQLITE_RUN_COUNT_TRIGGERS } from './runs/principal-run-counts.js';
import { PRINCIPAL_TURN_WEIGHTS_TABLE } from './runs/principal-turn-weights.js';
import {
  BACKFILL_CREATE_TOTALS,
  PRINCIPAL_CREATES_RUNNING_TOTAL,
  PRINCIPAL_CREATES_TABLE,
  SQLITE_BACKFILL_CREATES,
  SQLITE_CREATE_COUNT_TRIGGER,
  SQLITE_RUNNING_CREATE_COUNT_TRIGGER,
} from './runs/principal-creates.js';
import { RUN_TOKENS_TABLE } from './run-tokens/run-token-table.js';
import { SCHEDULE_FIRINGS_TABLE } from './schedules/schedule-firing-table.js';
import { AGENT_EVENTS_TABLE, AGENT_MESSAGES_TABLE } from './mailbox/mailbox-tables.js';
import { CONNECTED_WORKERS_TABLE } from './workers/connected-worker-table.js';
import { SCHEDULES_TABLE } from './schedules/schedule-table.js';
import { refuseNewerSchema } from './schema-version.js';
import { sqliteDialect } from './sql-dialect.js';
import { addColumns, createIndexes, createTable } from './table-schema.js';
import { SQLITE_WEBHOOK_PAYLOADS, SQLITE_WEBHOOK_TRIGGERS_BY_TYPE, SQLITE_WEBHOOKS } from './webhooks/webhook-schema.js';

/**
 * One step of the SQLite schema. Steps run in order, once each, inside a transaction;
 * `PRAGMA user_version` records the last one applied. Append new steps; never edit a
 * step that has shipped, since data files made by earlier versions have already run it.
 * The described tables (table-description.ts) are made from their descriptions: the columns
 * and indexes a step adds are named here, their definitions are the description's.
 */
export interface SqliteMigration {
  version: number;
  name: string;
  sql: string;
}

// The columns and indexes of runs that steps 4 and 6 add.
const RUNS_V4_COLUMNS = ['parent_run_id', 'conversation_id', 'metadata', 'mode', 'interactive', 'agent_identity_uid', 'schedule_id'];
const RUNS_V4_INDEXES = ['runs_by_parent', 'runs_by_conversation', 'runs_by_schedule'];
const RUNS_V6_COLUMNS = ['skill_id', 'origin'];
const RUNS_V6_INDEXES = ['runs_by_environment', 'runs_by_skill'];

// `IF NOT EXISTS` lets files made before versioning adopt it.
const RUNS_V1 = `
${createTable(RUNS_TABLE, sqliteDialect, { later: [...RUNS_V4_COLUMNS, ...RUNS_V4_INDEXES, ...RUNS_V6_COLUMNS, ...RUNS_V6_INDEXES, ...RUNS_WORKER_HOST, ...RUNS_TURN, ...RUNS_BY_CREATOR_CREATED], ifNotExists: true })}
${createTable(RUN_OUTPUTS_TABLE, sqliteDialect, { ifNotExists: true })}
`;

// The process group of each run's agent and its leader's start time, so a server started
// after a crash can end the agents the dead one left running, and no process that merely
// reuses the pid.
const RUN_PROCESSES_V2 = `
${createTable(RUN_PROCESSES_TABLE, sqliteDialect, { ifNotExists: true })}
`;

// What an agent made (artifacts, with the bytes of files and screenshots) and what was said
// to it and by it (the prompt is the run's; follow-ups and each execution's result are here).
const ARTIFACTS_AND_CONVERSATION_V3 = `
${createTable(ARTIFACTS_TABLE, sqliteDialect)}
${createTable(MESSAGES_TABLE, sqliteDialect)}
`;

// The create fields of the newest service. Metadata is kept twice: as JSON on the run for
// reads, and one row per key for `metadata[key]=value` filters. Attachments live apart
// from the run so that listing runs never reads their bytes.
const RUN_CREATE_FIELDS_V4 = `
${addColumns(RUNS_TABLE, sqliteDialect, RUNS_V4_COLUMNS)}
${createIndexes(RUNS_TABLE, sqliteDialect, RUNS_V4_INDEXES)}
${createTable(RUN_METADATA_TABLE, sqliteDialect)}
${createTable(RUN_ATTACHMENTS_TABLE, sqliteDialect)}
`;

// A run's events (state changes and the agent's output in chunks), numbered per run.
// `run_event_logs` keeps each run's last id, the output bytes kept and what the bound
// dropped. The single output text of version 1 becomes each run's first output event.
const RUN_EVENTS_V5 = `
${createTable(RUN_EVENTS_TABLE, sqliteDialect)}
${createTable(RUN_EVENT_LOGS_TABLE, sqliteDialect)}
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
${addColumns(RUNS_TABLE, sqliteDialect, RUNS_V6_COLUMNS)}
${createIndexes(RUNS_TABLE, sqliteDialect, RUNS_V6_INDEXES)}
${createTable(SCHEDULES_TABLE, sqliteDialect)}
${createTable(SCHEDULE_FIRINGS_TABLE, sqliteDialect)}
${createTable(IDENTITIES_TABLE, sqliteDialect)}
`;

// Where each run executes (its worker_host), and the index a claim of one host's runs walks.
const RUNS_WORKER_HOST_STEP = `
${addColumns(RUNS_TABLE, sqliteDialect, ['worker_host'])}
${createIndexes(RUNS_TABLE, sqliteDialect, ['runs_by_worker_host'])}
${createTable(CONNECTED_WORKERS_TABLE, sqliteDialect)}
`;

// Fair turns between principals: each queued run's turn, set by the database (run-turns.ts), and the claim's index.
const RUNS_TURN_STEP = `
${addColumns(RUNS_TABLE, sqliteDialect, ['turn'])}
${createIndexes(RUNS_TABLE, sqliteDialect, ['runs_by_turn', 'runs_queued_by_creator'])}
${SQLITE_RUN_TURNS}
`;

// The run-to-run mailbox and the lifecycle event feed.
const AGENT_MAILBOX_STEP = `
${createTable(AGENT_MESSAGES_TABLE, sqliteDialect)}
${createTable(AGENT_EVENTS_TABLE, sqliteDialect)}
`;

// Each principal's spend per UTC day, which its spend_per_day_usd quota holds; the index its creates_per_minute counts walk.
const DAILY_SPEND_STEP = `
${createTable(PRINCIPAL_SPEND_TABLE, sqliteDialect)}
${createIndexes(RUNS_TABLE, sqliteDialect, RUNS_BY_CREATOR_CREATED)}
`;

// Each principal's held runs and creates of the last minute as counters its quotas read (moved by triggers; the
// triggers first, then the counts of the runs there already); then the weights of fair turns and the turn that reads them.
const PRINCIPAL_RUN_COUNTS_STEP = `
${createTable(PRINCIPAL_RUN_COUNTS_TABLE, sqliteDialect)}
${SQLITE_RUN_COUNT_TRIGGERS}
${BACKFILL_RUN_COUNTS}
${createTable(PRINCIPAL_CREATES_TABLE, sqliteDialect, { later: PRINCIPAL_CREATES_RUNNING_TOTAL })}
${SQLITE_CREATE_COUNT_TRIGGER}
${SQLITE_BACKFILL_CREATES}
`;
// Running totals in the creates' slots, so a creates_per_minute check seeks two rows instead of summing 60.
const RUNNING_CREATE_TOTALS_STEP = `
${addColumns(PRINCIPAL_CREATES_TABLE, sqliteDialect, ['total'])}
${createIndexes(PRINCIPAL_CREATES_TABLE, sqliteDialect, ['principal_creates_by_second'])}
${BACKFILL_CREATE_TOTALS}
${SQLITE_RUNNING_CREATE_COUNT_TRIGGER}
`;
const WEIGHTED_TURNS_STEP = `
${createTable(PRINCIPAL_TURN_WEIGHTS_TABLE, sqliteDialect)}
${SQLITE_WEIGHTED_RUN_TURNS}
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
  { version: 10 + addedColumnSteps(sqliteDialect, 7).length, name: 'runs routed to self-hosted workers, and the workers connected', sql: RUNS_WORKER_HOST_STEP },
  { version: 11 + addedColumnSteps(sqliteDialect, 7).length, name: 'fair turns between principals', sql: RUNS_TURN_STEP },
  { version: 12 + addedColumnSteps(sqliteDialect, 7).length, name: 'agent messages and events', sql: AGENT_MAILBOX_STEP },
  { version: 13 + addedColumnSteps(sqliteDialect, 7).length, name: 'daily spend per principal', sql: DAILY_SPEND_STEP },
  { version: 14 + addedColumnSteps(sqliteDialect, 7).length, name: 'held runs counted per principal', sql: PRINCIPAL_RUN_COUNTS_STEP },
  { version: 15 + addedColumnSteps(sqliteDialect, 7).length, name: 'weighted fair turns', sql: WEIGHTED_TURNS_STEP },
  // The digests of the run tokens in use, which every server of a shared database honours.
  { version: 16 + addedColumnSteps(sqliteDialect, 7).length, name: 'run tokens', sql: createTable(RUN_TOKENS_TABLE, sqliteDialect) },
  { version: 17 + addedColumnSteps(sqliteDialect, 7).length, name: 'running totals of creates', sql: RUNNING_CREATE_TOTALS_STEP },
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
