import type { TableDescription } from '../table-description.js';

/**
 * SQLite's first home of a run's output, one text a run: step 5 makes each its run's first
 * output event and drops the table, so only a database's first step makes it.
 */
export const RUN_OUTPUTS_TABLE: TableDescription<never, never> = {
  name: 'run_outputs',
  only: 'sqlite',
  withoutRowid: true,
  columns: [
    { name: 'id', type: 'text', primaryKey: true },
    { name: 'output', type: 'text', notNull: true },
  ],
};
