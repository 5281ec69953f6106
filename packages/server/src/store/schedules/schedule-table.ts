import type { LeasedTable } from '../leased-table.js';
import type { ScheduleRecord } from './schedule-store.js';
import type { OwnedTable } from '../owned-records.js';
import { rowReader, selectList, type Row, type TableDescription } from '../table-description.js';

/** The `schedules` table: what both stores write and read, column by column. */
export const SCHEDULES_TABLE: TableDescription<ScheduleRecord, ScheduleRecord> = {
  name: 'schedules',
  columns: [
    { name: 'seq', type: 'integer', identity: 'increasing' },
    { name: 'id', type: 'text', write: (s) => s.id, read: 'id', notNull: true, unique: true },
    { name: 'name', type: 'text', write: (s) => s.name, read: 'name', notNull: true },
    { name: 'cron_schedule', type: 'text', write: (s) => s.cronSchedule, read: 'cronSchedule', notNull: true },
    { name: 'enabled', type: 'boolean', write: (s) => s.enabled, read: 'enabled', notNull: true },
    { name: 'body', type: 'json', write: (s) => s.body, read: 'body', notNull: true },
    { name: 'creator', type: 'json', write: (s) => s.creator, read: 'creator', notNull: true },
    { name: 'created_at', type: 'text', write: (s) => s.createdAt, read: 'createdAt', notNull: true, byteOrder: true },
    { name: 'updated_at', type: 'text', write: (s) => s.updatedAt, read: 'updatedAt', notNull: true, byteOrder: true },
    { name: 'updated_by', type: 'json', write: (s) => s.updatedBy, read: 'updatedBy', notNull: true },
    { name: 'last_ran', type: 'text', write: (s) => s.lastRan, read: 'lastRan', byteOrder: true },
    { name: 'next_run', type: 'text', write: (s) => s.nextRun, read: 'nextRun', byteOrder: true },
    { name: 'last_spawn_error', type: 'text', write: (s) => s.lastSpawnError, read: 'lastSpawnError' },
  ],
  // The schedules whose firing is due, in its order.
  indexes: [{ name: 'schedules_due', on: 'next_run', where: { sqlite: 'enabled = 1', postgres: 'enabled' } }],
};

/**
 * Schedules as records their creators keep: by id; an edit rewrites the definition and timing
 * (the creator, creation time and last firing stay). The creator is kept whole, as JSON.
 */
export const SCHEDULES: OwnedTable<ScheduleRecord> = {
  table: SCHEDULES_TABLE,
  key: 'id',
  replaced: ['name', 'cron_schedule', 'enabled', 'body', 'updated_at', 'updated_by', 'next_run', 'last_spawn_error'],
  ownedBy: (dialect, placeholder) => `coalesce(${dialect.jsonText('creator', 'uid')}, '') = ${placeholder}`,
};

/** What a read of a schedule selects. */
export const SCHEDULE_COLUMNS = selectList(SCHEDULES_TABLE);

export const toSchedule = rowReader(SCHEDULES_TABLE);

/**
 * A schedule's firings as leased: a claim takes the firing of one tick (bound: the schedule,
 * the tick) while it is not finished, and the lease lasts until its run (or error) is
 * recorded; a firing whose server died is taken over once its lease ran out.
 */
export const LEASED_FIRINGS: LeasedTable = {
  name: 'schedule_firings',
  alias: 'f',
  key: ['schedule_id', 'tick_at'],
  keyType: 'text',
  owner: 'lease_owner',
  expiresAt: 'lease_expires_at',
  clock: 'database',
  held: 'f.run_id IS NULL AND f.error IS NULL',
  due: 'f.schedule_id = ? AND f.tick_at = ? AND f.run_id IS NULL AND f.error IS NULL',
  order: 'f.tick_at',
  columns: 'f.schedule_id, f.tick_at',
};

export type { Row as ScheduleRow };
