import type { SqlDialect } from '../sql-dialect.js';
import { insertStatement, selectList, type TableDescription, type WriteStatement } from '../table-description.js';

/** A firing as its claim first writes it: the tick, and when it fired. */
export interface NewFiring {
  scheduleId: string;
  tick: string;
  firedAt: string;
}

/** What a firing ended with: the run it started, or why none (both null while it is under way). */
export interface FiringOutcome {
  runId: string | null;
  error: string | null;
}

/**
 * Each tick a schedule fired, with the run it started or why none. PostgreSQL keeps the
 * firing's lease in the row (a later step adds it); SQLite keeps its leases in memory.
 */
export const SCHEDULE_FIRINGS_TABLE: TableDescription<NewFiring, FiringOutcome> = {
  name: 'schedule_firings',
  withoutRowid: true,
  columns: [
    { name: 'schedule_id', type: 'text', notNull: true, write: (f) => f.scheduleId },
    { name: 'tick_at', type: 'text', byteOrder: true, notNull: true, write: (f) => f.tick },
    { name: 'fired_at', type: 'text', notNull: true, write: (f) => f.firedAt },
    { name: 'run_id', type: 'text', read: 'runId' },
    { name: 'error', type: 'text', read: 'error' },
    { name: 'lease_owner', type: 'text', only: 'postgres' },
    { name: 'lease_expires_at', type: 'moment', only: 'postgres' },
  ],
  keys: [{ kind: 'primary', on: 'schedule_id, tick_at' }],
};

/** The lease columns PostgreSQL's step after the first adds (`schedule firing leases`). */
export const SCHEDULE_FIRING_LEASE_COLUMNS = ['lease_owner', 'lease_expires_at'];

/** A tick's firing, unless one was written for it already (a claim by another server, or an earlier one). */
export function insertFiringStatement(dialect: SqlDialect): WriteStatement<NewFiring> {
  return insertStatement(SCHEDULE_FIRINGS_TABLE, dialect, 'ON CONFLICT DO NOTHING');
}

/** What a tick's firing ended with, for `?`/`$n` placeholders of its schedule and tick. */
export function firingOutcomeQuery(dialect: SqlDialect): string {
  return `SELECT ${selectList(SCHEDULE_FIRINGS_TABLE)} FROM schedule_firings WHERE schedule_id = ${dialect.placeholder(1)} AND tick_at = ${dialect.placeholder(2)}`;
}
