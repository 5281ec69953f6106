import type Database from 'better-sqlite3';
import {
  LEASED_FIRINGS,
  SCHEDULE_COLUMNS as COLUMNS,
  SCHEDULE_REPLACED_COLUMNS,
  SCHEDULES_TABLE,
  toSchedule as toRecord,
  type ScheduleRow,
} from './schedule-table.js';
import { FIRING_LEASE_MS, type FiringResult, type ScheduleRecord, type ScheduleStore } from './schedule-store.js';
import { keyOf } from './leased-table.js';
import { SqliteLeases } from './sqlite-leases.js';
import { sqliteDialect } from './sql-dialect.js';
import { insertStatement, updateStatement } from './table-description.js';
import { toOwnedPage, type OwnedPage, type OwnedPageQuery } from './owned-page.js';

const INSERT = insertStatement(SCHEDULES_TABLE, sqliteDialect);
const REPLACE = updateStatement(SCHEDULES_TABLE, sqliteDialect, SCHEDULE_REPLACED_COLUMNS, 'id');
/** The one server on the file: the owner of its firings' leases. */
const OWNER = 'this server';

type Claim = 'claimed' | 'taken' | 'stopped';

/** Schedules in the runs database (the tables of migration 2). */
export class SqliteScheduleStore implements ScheduleStore {
  private readonly insertOne: Database.Statement;
  private readonly replaceOne: Database.Statement;
  private readonly leases: SqliteLeases<Record<string, unknown>>;
  private readonly claim: (scheduleId: string, tick: string, at: string, leaseMs: number) => Claim;
  private readonly finish: (scheduleId: string, tick: string, result: FiringResult, timing: { lastRan: string | null; nextRun: string | null }) => void;

  constructor(private readonly db: Database.Database) {
    this.insertOne = db.prepare(INSERT.sql);
    this.replaceOne = db.prepare(REPLACE.sql);
    this.leases = new SqliteLeases(db, LEASED_FIRINGS, (row) => row);
    this.claim = db.transaction((scheduleId: string, tick: string, at: string, leaseMs: number): Claim => {
      if (!db.prepare('SELECT 1 FROM schedules WHERE id = ? AND enabled = 1').get(scheduleId)) return 'stopped';
      db.prepare('INSERT OR IGNORE INTO schedule_firings (schedule_id, tick_at, fired_at) VALUES (?, ?, ?)').run(scheduleId, tick, at);
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

  async insert(schedule: ScheduleRecord): Promise<void> {
    this.insertOne.run(INSERT.values(schedule));
  }

  async get(id: string): Promise<ScheduleRecord | undefined> {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM schedules WHERE id = ?`).get(id) as ScheduleRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  async list(): Promise<ScheduleRecord[]> {
    return (this.db.prepare(`SELECT ${COLUMNS} FROM schedules ORDER BY seq`).all() as ScheduleRow[]).map(toRecord);
  }

  async page({ creatorUid, afterSeq, limit }: OwnedPageQuery): Promise<OwnedPage<ScheduleRecord>> {
    const mine = creatorUid === undefined ? '' : "AND IFNULL(json_extract(creator, '$.uid'), '') = ?";
    const rows = this.db
      .prepare(`SELECT seq, ${COLUMNS} FROM schedules WHERE seq > ? ${mine} ORDER BY seq LIMIT ?`)
      .all(...(creatorUid === undefined ? [afterSeq, limit + 1] : [afterSeq, creatorUid, limit + 1])) as (ScheduleRow & { seq: number })[];
    return toOwnedPage(rows, limit, toRecord);
  }

  async replace(schedule: ScheduleRecord): Promise<boolean> {
    return this.replaceOne.run(REPLACE.values(schedule)).changes > 0;
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

  async claimFiring(scheduleId: string, tick: string, at: string, leaseMs = FIRING_LEASE_MS): Promise<{ claimed: boolean; earlier?: FiringResult; stopped?: true }> {
    const claim = this.claim(scheduleId, tick, at, leaseMs);
    if (claim === 'stopped') return { claimed: false, stopped: true };
    if (claim === 'claimed') return { claimed: true };
    const row = this.db
      .prepare('SELECT run_id, error FROM schedule_firings WHERE schedule_id = ? AND tick_at = ?')
      .get(scheduleId, tick) as { run_id: string | null; error: string | null };
    const finished = row.run_id !== null || row.error !== null;
    return { claimed: false, ...(finished ? { earlier: { runId: row.run_id, error: row.error } } : {}) };
  }

  async finishFiring(scheduleId: string, tick: string, result: FiringResult, timing: { lastRan: string | null; nextRun: string | null }): Promise<void> {
    this.finish(scheduleId, tick, result, timing);
    this.leases.releaseNow(undefined, [keyOf(LEASED_FIRINGS, { schedule_id: scheduleId, tick_at: tick })]);
  }
}
