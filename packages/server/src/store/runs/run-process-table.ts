import type { TableDescription } from '../table-description.js';

/**
 * The process group of each run's agent and its leader's start time, so a server started
 * after a crash can end the agents the dead one left running, and no process that merely
 * reuses the pid.
 */
export const RUN_PROCESSES_TABLE: TableDescription<never, never> = {
  name: 'run_processes',
  withoutRowid: true,
  columns: [
    { name: 'id', type: 'text', primaryKey: true },
    { name: 'pgid', type: 'int32', notNull: true },
    { name: 'start_time', type: 'text' },
  ],
};
