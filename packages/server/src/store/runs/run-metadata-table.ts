import type { TableDescription } from '../table-description.js';

/** A run's metadata one row per key, for `metadata[key]=value` filters (reads take the run's JSON). */
export const RUN_METADATA_TABLE: TableDescription<never, never> = {
  name: 'run_metadata',
  withoutRowid: true,
  columns: [
    { name: 'run_id', type: 'text', notNull: true },
    { name: 'key', type: 'text', notNull: true },
    { name: 'value', type: 'text', notNull: true },
  ],
  keys: [{ kind: 'primary', on: 'run_id, key' }],
  indexes: [{ name: 'run_metadata_by_pair', on: 'key, value' }],
};
