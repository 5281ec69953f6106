import { ARTIFACTS_TABLE } from './artifacts/artifact-table.js';
import { IDENTITIES_TABLE } from './named-agents/named-agent-table.js';
import { MESSAGES_TABLE } from './conversations/message-table.js';
import { RUN_EVENT_LOGS_TABLE, RUN_EVENTS_TABLE } from './run-events/run-event-tables.js';
import { RUN_ATTACHMENTS_TABLE } from './runs/run-attachment-table.js';
import { RUN_METADATA_TABLE } from './runs/run-metadata-table.js';
import { RUN_PROCESSES_TABLE } from './runs/run-process-table.js';
import { RUNS_TABLE } from './runs/run-table.js';
import { PRINCIPAL_SPEND_TABLE } from './spend/principal-spend-table.js';
import { SCHEDULE_FIRINGS_TABLE } from './schedules/schedule-firing-table.js';
import { SCHEDULES_TABLE } from './schedules/schedule-table.js';
import { SHARED_SECRETS_TABLE } from './secret-table.js';
import type { SqlDialect } from './sql-dialect.js';
import { CONNECTED_WORKERS_TABLE } from './workers/connected-worker-table.js';
import type { TableDescription } from './table-description.js';
import { columnDefinition } from './table-schema.js';
import { DELIVERIES_TABLE, OUTBOX_TABLE, PAYLOADS_TABLE, SUBSCRIPTIONS_TABLE } from './webhooks/webhook-tables.js';

/** A migration step that adds one described column. */
export interface AddedColumnStep {
  version: number;
  name: string;
  sql: string;
}

/**
 * Every described table a database keeps, whose columns marked `added` both databases'
 * migrations add. SQLite's run_outputs is not here: its step 5 drops it.
 */
export const DESCRIBED_TABLES: readonly TableDescription<never, never>[] = [
  RUNS_TABLE,
  SCHEDULES_TABLE,
  IDENTITIES_TABLE,
  ARTIFACTS_TABLE,
  MESSAGES_TABLE,
  SUBSCRIPTIONS_TABLE,
  OUTBOX_TABLE,
  DELIVERIES_TABLE,
  PAYLOADS_TABLE,
  RUN_PROCESSES_TABLE,
  RUN_METADATA_TABLE,
  RUN_ATTACHMENTS_TABLE,
  RUN_EVENTS_TABLE,
  RUN_EVENT_LOGS_TABLE,
  SCHEDULE_FIRINGS_TABLE,
  SHARED_SECRETS_TABLE,
  CONNECTED_WORKERS_TABLE,
  PRINCIPAL_SPEND_TABLE,
];

/**
 * The steps that add the columns marked `added`, one each, numbered after the dialect's
 * last written step (`after`): a new column is described once, and both databases get it.
 * A column's `added` place never changes once shipped, as a written step never does.
 */
export function addedColumnSteps(dialect: SqlDialect, after: number, tables = DESCRIBED_TABLES): AddedColumnStep[] {
  const added = tables
    .flatMap((table) => table.columns.map((column) => ({ table: table.name, column })))
    .filter(({ column }) => column.added !== undefined)
    .sort((a, b) => a.column.added! - b.column.added!);
  return added.map(({ table, column }, i) => {
    if (column.added !== i + 1) throw new Error(`${table}.${column.name}: added columns are numbered 1, 2, … without gaps or repeats.`);
    return {
      version: after + column.added,
      name: `${table}.${column.name}`,
      sql: `ALTER TABLE ${table} ADD COLUMN ${columnDefinition(column, dialect)}`,
    };
  });
}
