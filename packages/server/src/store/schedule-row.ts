import type { ScheduleRecord } from './schedule-store.js';

/** A `schedules` row as both databases answer it (`enabled` is 0/1 in SQLite, a boolean in PostgreSQL). */
export interface ScheduleRow {
  id: string;
  name: string;
  cron_schedule: string;
  enabled: number | boolean;
  body: string;
  creator: string;
  created_at: string;
  updated_at: string;
  updated_by: string;
  last_ran: string | null;
  next_run: string | null;
  last_spawn_error: string | null;
}

export const SCHEDULE_COLUMNS =
  'id, name, cron_schedule, enabled, body, creator, created_at, updated_at, updated_by, last_ran, next_run, last_spawn_error';

export function toSchedule(row: ScheduleRow): ScheduleRecord {
  return {
    id: row.id,
    name: row.name,
    cronSchedule: row.cron_schedule,
    enabled: row.enabled === true || row.enabled === 1,
    body: JSON.parse(row.body) as ScheduleRecord['body'],
    creator: JSON.parse(row.creator) as ScheduleRecord['creator'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    updatedBy: JSON.parse(row.updated_by) as ScheduleRecord['updatedBy'],
    lastRan: row.last_ran,
    nextRun: row.next_run,
    lastSpawnError: row.last_spawn_error,
  };
}
