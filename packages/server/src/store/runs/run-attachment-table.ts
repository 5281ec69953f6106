import type { TableDescription } from '../table-description.js';

/**
 * A run's attachments, apart from the run so that listing runs never reads their bytes.
 * SQLite's table keeps a rowid and makes the pair unique; PostgreSQL's is keyed by the pair.
 */
export const RUN_ATTACHMENTS_TABLE: TableDescription<never, never> = {
  name: 'run_attachments',
  columns: [
    { name: 'run_id', type: 'text', notNull: true },
    { name: 'position', type: 'int32', notNull: true },
    { name: 'file_name', type: 'text', notNull: true },
    { name: 'mime_type', type: 'text', notNull: true },
    { name: 'data', type: 'bytes', notNull: true },
  ],
  keys: [
    { kind: 'unique', on: 'run_id, position', only: 'sqlite' },
    { kind: 'primary', on: 'run_id, position', only: 'postgres' },
  ],
};
