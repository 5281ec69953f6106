import type { ProcessGroupRecord } from './process-group-record.js';
import type { SqlDialect } from '../sql-dialect.js';
import { insertStatement, selectList, type TableDescription, type WriteStatement } from '../table-description.js';

/** A run's process group as written. */
export interface RunProcessRow {
  id: string;
  group: ProcessGroupRecord;
}

/** A run's process group as read. */
export type RunProcess = ProcessGroupRecord & { id: string };

/**
 * The process group of each run's agent and its leader's start time, so a server started
 * after a crash can end the agents the dead one left running, and no process that merely
 * reuses the pid.
 */
export const RUN_PROCESSES_TABLE: TableDescription<RunProcessRow, RunProcess> = {
  name: 'run_processes',
  withoutRowid: true,
  columns: [
    { name: 'id', type: 'text', primaryKey: true, write: (r) => r.id, read: 'id' },
    { name: 'pgid', type: 'int32', notNull: true, write: (r) => r.group.pgid, read: 'pgid' },
    { name: 'start_time', type: 'text', write: (r) => r.group.startTime, read: 'startTime' },
  ],
};

/** A run's process group, replacing the one it had (both databases say upsert alike). */
export function setProcessStatement(dialect: SqlDialect): WriteStatement<RunProcessRow> {
  return insertStatement(RUN_PROCESSES_TABLE, dialect, 'ON CONFLICT (id) DO UPDATE SET pgid = excluded.pgid, start_time = excluded.start_time');
}

/** The process groups of the runs in the states `inStates` (an SQL term on runs) picks. */
export function processGroupsQuery(inStates: string): string {
  return `SELECT ${selectList(RUN_PROCESSES_TABLE)} FROM run_processes WHERE id IN (SELECT id FROM runs WHERE ${inStates})`;
}
