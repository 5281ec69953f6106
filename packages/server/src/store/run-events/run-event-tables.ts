import type { TableDescription } from '../table-description.js';

/** A run's events (state changes and the agent's output in chunks), numbered per run. */
export const RUN_EVENTS_TABLE: TableDescription<never, never> = {
  name: 'run_events',
  withoutRowid: true,
  columns: [
    { name: 'run_id', type: 'text', byteOrder: true, notNull: true },
    { name: 'id', type: 'int32', notNull: true },
    { name: 'kind', type: 'text', notNull: true },
    { name: 'data', type: 'text', notNull: true },
    { name: 'bytes', type: 'integer', notNull: true, default: '0' },
  ],
  keys: [{ kind: 'primary', on: 'run_id, id' }],
};

/** Each run's last event id, the output bytes kept, what the bound dropped, and the run version the events last showed. */
export const RUN_EVENT_LOGS_TABLE: TableDescription<never, never> = {
  name: 'run_event_logs',
  withoutRowid: true,
  columns: [
    { name: 'run_id', type: 'text', byteOrder: true, primaryKey: true },
    { name: 'last_id', type: 'int32', notNull: true },
    { name: 'output_bytes', type: 'integer', notNull: true, default: '0' },
    { name: 'dropped_through', type: 'int32', notNull: true, default: '0' },
    { name: 'dropped_bytes', type: 'integer', notNull: true, default: '0' },
    { name: 'run_version', type: 'text', notNull: true, default: "''" },
  ],
};
