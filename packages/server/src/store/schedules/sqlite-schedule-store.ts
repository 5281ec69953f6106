import type Database from 'better-sqlite3';
import { LEASED_FIRINGS, SCHEDULE_COLUMNS as COLUMNS, SCHEDULES, toSchedule as toRecord, type ScheduleRow } from './schedule-table.js';
import { firingOutcomeQuery, insertFiringStatement, SCHEDULE_FIRINGS_TABLE } from './schedule-firing-table.js';
import { sqliteDialect } from '../sql-dialect.js';
import { rowReader, type Row } from '../table-description.js';
import { FIRING_LEASE_MS, type FiringResult, type ScheduleRecord, type ScheduleStore } from './schedule-store.js';
import { keyOf } from '../leased-table.js';
import { SqliteLeases } from '../sqlite-leases.js';
import { SqliteOwnedRecords } from '../sqlite-owned-records.js';

const INSERT_FIRING = insertFiringStatement(sqliteDialect);
const READ_OUTCOME = rowReader(SCHEDULE_FIRINGS_TABLE);

/** The one server on the file: the owner of its firings' leases. */
const OWNER = 'this server';

type Claim = 'claimed' | 'taken' | 'stopped';

/** Schedules in the runs database (the tables of migration 2). */
export class SqliteScheduleStore extends SqliteOwnedRecords<ScheduleRecord> implements ScheduleStore {
  private readonly leases: SqliteLeases<Record<string, unknown>>;
  private readonly claim: (scheduleId: string, tick: string, at: string, leaseMs: number) => Claim;
  private readonly finish: (scheduleId: string, tick: string, result: FiringResult, timing: { lastRan: string | null; nextRun: string | null }) => void;

  constructor(db: Database.Database) {
    super(db, SCHEDULES);
    this.leases = new SqliteLeases(db, LEASED_FIRINGS, (row) => row);
    this.claim = db.transaction((scheduleId: string, tick: string, at: string, leaseMs: number): Claim => {
      if (!db.prepare('SELECT 1 FROM schedules WHERE id = ? AND enabled = 1').get(scheduleId)) return 'stopped';
      db.prepare(INSERT_FIRING.sql).run(INSERT_FIRING.values({ scheduleId, tick, firedAt: at }));
      return this.leases.claimNow({ owner: OWNER, leaseMs, limit: 1, dueParams: [scheduleId, tick] }).length ? 'claimed' : 'taken';
    });
    this.finish = db.transaction((scheduleId: string, tick: string, result: FiringResult, timing: { lastRan: string | null; nextRun: string | null }) => {
      db.prepare('UPDATE schedule_firings SET run_id = ?, error = ? WHERE schedule_id = ? AND tick_at = ?').run(
        result.runId,
        result.error,
        scheduleId,
        tick,
      );
      // Paused meanwhile: a paused schedule has no next tick.
      db.prepare('UPDATE schedules SET last_ran = ?, next_run = CASE WHEN enabled THEN ? ELSE NULL END, last_spawn_error = ? WHERE id = ?').run(
        timing.lastRan,
        timing.nextRun,
        result.error,
        scheduleId,
      );
    });
  }

  override async delete(id: string): Promise<boolean> {
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

  async claimFiring(scheduleId: string, tick: string, at: string, leaseMs = FIRING_LEASE_MS): Promise<{ claimed: boolean; earlier?: FiringResult; stopped?: true }> {
    const claim = this.claim(scheduleId, tick, at, leaseMs);
    if (claim === 'stopped') return { claimed: false, stopped: true };
    if (claim === 'claimed') return { claimed: true };
    const earlier = READ_OUTCOME(this.db.prepare(firingOutcomeQuery(sqliteDialect)).get(scheduleId, tick) as Row);
    const finished = earlier.runId !== null || earlier.error !== null;
    return { claimed: false, ...(finished ? { earlier } : {}) };
  }

  async finishFiring(scheduleId: string, tick: string, result: FiringResult, timing: { lastRan: string | null; nextRun: string | null }): Promise<void> {
    this.finish(scheduleId, tick, result, timing);
    this.leases.releaseNow(undefined, [keyOf(LEASED_FIRINGS, { schedule_id: scheduleId, tick_at: tick })]);
  }
}
