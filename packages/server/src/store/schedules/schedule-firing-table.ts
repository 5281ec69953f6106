import type { TableDescription } from '../table-description.js';

/**
 * Each tick a schedule fired, with the run it started or why none. PostgreSQL keeps the
 * firing's lease in the row (a later step adds it); SQLite keeps its leases in memory.
 */
export const SCHEDULE_FIRINGS_TABLE: TableDescription<never, never> = {
  name: 'schedule_firings',
  withoutRowid: true,
  columns: [
    { name: 'schedule_id', type: 'text', notNull: true },
    { name: 'tick_at', type: 'text', byteOrder: true, notNull: true },
    { name: 'fired_at', type: 'text', notNull: true },
    { name: 'run_id', type: 'text' },
    { name: 'error', type: 'text' },
    { name: 'lease_owner', type: 'text', only: 'postgres' },
    { name: 'lease_expires_at', type: 'moment', only: 'postgres' },
  ],
  keys: [{ kind: 'primary', on: 'schedule_id, tick_at' }],
};

/** The lease columns PostgreSQL's step after the first adds (`schedule firing leases`). */
export const SCHEDULE_FIRING_LEASE_COLUMNS = ['lease_owner', 'lease_expires_at'];
