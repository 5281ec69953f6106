import type Database from 'better-sqlite3';
import { SCHEDULE_COLUMNS as COLUMNS, toSchedule as toRecord, type ScheduleRow } from './schedule-row.js';
import type { FiringResult, ScheduleRecord, ScheduleStore } from './schedule-store.js';

function toParams(s: ScheduleRecord): Record<string, unknown> {
  return {
    id: s.id,
    name: s.name,
    cron_schedule: s.cronSchedule,
    enabled: s.enabled ? 1 : 0,
    body: JSON.stringify(s.body),
    creator: JSON.stringify(s.creator),
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    updated_by: JSON.stringify(s.updatedBy),
    last_ran: s.lastRan,
    next_run: s.nextRun,
    last_spawn_error: s.lastSpawnError,
  };
}

/** Schedules in the runs database (the tables of migration 2). */
export class SqliteScheduleStore implements ScheduleStore {
  private readonly finish: (scheduleId: string, tick: string, result: FiringResult, timing: { lastRan: string | null; nextRun: string | null }) => void;

  constructor(private readonly db: Database.Database) {
    this.finish = db.transaction((scheduleId: string, tick: string, result: FiringResult, timing: { lastRan: string | null; nextRun: string | null }) => {
      db.prepare('UPDATE schedule_firings SET run_id = ?, error = ? WHERE schedule_id = ? AND tick_at = ?').run(
        result.runId,
        result.error,
        scheduleId,
        tick,
      );
      db.prepare('UPDATE schedules SET last_ran = ?, next_run = ?, last_spawn_error = ? WHERE id = ?').run(
        timing.lastRan,
        timing.nextRun,
        result.error,
        scheduleId,
      );
    });
  }

  async insert(schedule: ScheduleRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO schedules (${COLUMNS}) VALUES (@id, @name, @cron_schedule, @enabled, @body, @creator, @created_at, @updated_at,
          @updated_by, @last_ran, @next_run, @last_spawn_error)`,
      )
      .run(toParams(schedule));
  }

  async get(id: string): Promise<ScheduleRecord | undefined> {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM schedules WHERE id = ?`).get(id) as ScheduleRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  async list(): Promise<ScheduleRecord[]> {
    return (this.db.prepare(`SELECT ${COLUMNS} FROM schedules ORDER BY seq`).all() as ScheduleRow[]).map(toRecord);
  }

  async replace(schedule: ScheduleRecord): Promise<boolean> {
    const info = this.db
      .prepare(
        `UPDATE schedules SET name = @name, cron_schedule = @cron_schedule, enabled = @enabled, body = @body, updated_at = @updated_at,
          updated_by = @updated_by, next_run = @next_run, last_spawn_error = @last_spawn_error WHERE id = @id`,
      )
      .run(toParams(schedule));
    return info.changes > 0;
  }

  async delete(id: string): Promise<boolean> {
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM schedule_firings WHERE schedule_id = ?').run(id);
      return this.db.prepare('DELETE FROM schedules WHERE id = ?').run(id).changes > 0;
    })();
  }

  async due(now: string): Promise<ScheduleRecord[]> {
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM schedules WHERE enabled = 1 AND next_run IS NOT NULL AND next_run <= ? ORDER BY next_run`)
      .all(now) as ScheduleRow[];
    return rows.map(toRecord);
  }

  async claimFiring(scheduleId: string, tick: string, at: string): Promise<{ claimed: boolean; earlier?: FiringResult }> {
    const info = this.db
      .prepare('INSERT OR IGNORE INTO schedule_firings (schedule_id, tick_at, fired_at) VALUES (?, ?, ?)')
      .run(scheduleId, tick, at);
    if (info.changes > 0) return { claimed: true };
    const row = this.db
      .prepare('SELECT run_id, error FROM schedule_firings WHERE schedule_id = ? AND tick_at = ?')
      .get(scheduleId, tick) as { run_id: string | null; error: string | null };
    const finished = row.run_id !== null || row.error !== null;
    return { claimed: false, ...(finished ? { earlier: { runId: row.run_id, error: row.error } } : {}) };
  }

  async finishFiring(scheduleId: string, tick: string, result: FiringResult, timing: { lastRan: string | null; nextRun: string | null }): Promise<void> {
    this.finish(scheduleId, tick, result, timing);
  }
}
