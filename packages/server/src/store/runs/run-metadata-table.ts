import type { TableDescription } from '../table-description.js';

/** One metadata pair of a run. */
export interface RunMetadataRow {
  runId: string;
  key: string;
  value: string;
}

/** A run's metadata one row per key, for `metadata[key]=value` filters (reads take the run's JSON). */
export const RUN_METADATA_TABLE: TableDescription<RunMetadataRow, never> = {
  name: 'run_metadata',
  withoutRowid: true,
  columns: [
    { name: 'run_id', type: 'text', notNull: true, write: (r) => r.runId },
    { name: 'key', type: 'text', notNull: true, write: (r) => r.key },
    { name: 'value', type: 'text', notNull: true, write: (r) => r.value },
  ],
  keys: [{ kind: 'primary', on: 'run_id, key' }],
  indexes: [{ name: 'run_metadata_by_pair', on: 'key, value' }],
};

/** The rows of a run's metadata. */
export function metadataRows(runId: string, metadata: Record<string, string> | undefined): RunMetadataRow[] {
  return Object.entries(metadata ?? {}).map(([key, value]) => ({ runId, key, value }));
}
