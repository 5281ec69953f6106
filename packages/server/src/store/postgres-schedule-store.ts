import type pg from 'pg';
import { inTransaction } from './postgres-transaction.js';
import {
  LEASED_FIRINGS,
  SCHEDULE_COLUMNS as COLUMNS,
  SCHEDULE_REPLACED_COLUMNS,
  SCHEDULES_TABLE,
  toSchedule as toRecord,
  type ScheduleRow,
} from './schedule-table.js';
import { postgresDialect } from './sql-dialect.js';
import { insertStatement, updateStatement } from './table-description.js';
import { FIRING_LEASE_MS, type FiringResult, type ScheduleRecord, type ScheduleStore } from './schedule-store.js';
import { PostgresLeases } from './postgres-leases.js';
import { toOwnedPage, type OwnedPage, type OwnedPageQuery } from './owned-page.js';

const INSERT = insertStatement(SCHEDULES_TABLE, postgresDialect);
const REPLACE = updateStatement(SCHEDULES_TABLE, postgresDialect, SCHEDULE_REPLACED_COLUMNS, 'id');

/** Schedules and their firings in PostgreSQL; a firing is leased to one server at a time. */
export class PostgresScheduleStore implements ScheduleStore {
  private readonly leases: PostgresLeases<Record<string, unknown>>;

  /** `owner`: this server, on the firings it leases. */
  constructor(
    private readonly pool: pg.Pool,
    private readonly owner: string,
  ) {
    this.leases = new PostgresLeases(pool, LEASED_FIRINGS, (row) => row);
  }

  async insert(schedule: ScheduleRecord): Promise<void> {
    await this.pool.query(INSERT.sql, INSERT.values(schedule));
  }

  async get(id: string): Promise<ScheduleRecord | undefined> {
    const { rows } = await this.pool.query<ScheduleRow>(`SELECT ${COLUMNS} FROM schedules WHERE id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async list(): Promise<ScheduleRecord[]> {
    const { rows } = await this.pool.query<ScheduleRow>(`SELECT ${COLUMNS} FROM schedules ORDER BY seq`);
    return rows.map(toRecord);
  }

  async page({ creatorUid, afterSeq, limit }: OwnedPageQuery): Promise<OwnedPage<ScheduleRecord>> {
    const mine = creatorUid === undefined ? '' : "AND coalesce(creator::json->>'uid', '') = $3";
    const { rows } = await this.pool.query<ScheduleRow & { seq: string }>(
      `SELECT seq, ${COLUMNS} FROM schedules WHERE seq > $1 ${mine} ORDER BY seq LIMIT $2`,
      creatorUid === undefined ? [afterSeq, limit + 1] : [afterSeq, limit + 1, creatorUid],
    );
    return toOwnedPage(rows, limit, toRecord);
  }

  async replace(schedule: ScheduleRecord): Promise<boolean> {
    const result = await this.pool.query(REPLACE.sql, REPLACE.values(schedule));
    return (result.rowCount ?? 0) > 0;
  }

  async delete(id: string): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM schedule_firings WHERE schedule_id = $1', [id]);
      const result = await client.query('DELETE FROM schedules WHERE id = $1', [id]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  async due(now: string): Promise<ScheduleRecord[]> {
    const { rows } = await this.pool.query<ScheduleRow>(
      `SELECT ${COLUMNS} FROM schedules WHERE enabled AND next_run IS NOT NULL AND next_run <= $1 ORDER BY next_run`,
      [now],
    );
    return rows.map(toRecord);
  }

  async claimFiring(scheduleId: string, tick: string, at: string, leaseMs = FIRING_LEASE_MS): Promise<{ claimed: boolean; earlier?: FiringResult; stopped?: true }> {
    // The schedule's row is locked while it is checked and the firing claimed: a pause or
    // delete on another server waits for the claim, or the claim sees it.
    const claim = await inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ enabled: boolean }>('SELECT enabled FROM schedules WHERE id = $1 FOR UPDATE', [scheduleId]);
      if (!rows[0]?.enabled) return 'stopped' as const;
      await client.query('INSERT INTO schedule_firings (schedule_id, tick_at, fired_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [scheduleId, tick, at]);
      const claimed = await this.leases.claimIn(client, { owner: this.owner, leaseMs, limit: 1, dueParams: [scheduleId, tick] });
      return claimed.length ? ('claimed' as const) : ('taken' as const);
    });
    if (claim === 'stopped') return { claimed: false, stopped: true };
    if (claim === 'claimed') return { claimed: true };
    const { rows } = await this.pool.query<{ run_id: string | null; error: string | null }>(
      'SELECT run_id, error FROM schedule_firings WHERE schedule_id = $1 AND tick_at = $2',
      [scheduleId, tick],
    );
    const row = rows[0] ?? { run_id: null, error: null };
    const finished = row.run_id !== null || row.error !== null;
    return { claimed: false, ...(finished ? { earlier: { runId: row.run_id, error: row.error } } : {}) };
  }

  async finishFiring(scheduleId: string, tick: string, result: FiringResult, timing: { lastRan: string | null; nextRun: string | null }): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query('UPDATE schedule_firings SET run_id = $1, error = $2, lease_owner = NULL, lease_expires_at = NULL WHERE schedule_id = $3 AND tick_at = $4', [
        result.runId,
        result.error,
        scheduleId,
        tick,
      ]);
      // Paused meanwhile: a paused schedule has no next tick.
      await client.query('UPDATE schedules SET last_ran = $1, next_run = CASE WHEN enabled THEN $2::text ELSE NULL END, last_spawn_error = $3 WHERE id = $4', [
        timing.lastRan,
        timing.nextRun,
        result.error,
        scheduleId,
      ]);
    });
  }
}
