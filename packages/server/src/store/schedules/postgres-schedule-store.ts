import type pg from 'pg';
import { inTransaction } from '../postgres-transaction.js';
import { PostgresOwnedRecords } from '../postgres-owned-records.js';
import { PostgresLeases } from '../postgres-leases.js';
import { LEASED_FIRINGS, SCHEDULE_COLUMNS as COLUMNS, SCHEDULES, toSchedule as toRecord, type ScheduleRow } from './schedule-table.js';
import { firingOutcomeQuery, insertFiringStatement, SCHEDULE_FIRINGS_TABLE } from './schedule-firing-table.js';
import { postgresDialect } from '../sql-dialect.js';
import { rowReader, type Row } from '../table-description.js';
import { FIRING_LEASE_MS, type FiringResult, type ScheduleRecord, type ScheduleStore } from './schedule-store.js';

const INSERT_FIRING = insertFiringStatement(postgresDialect);
const READ_OUTCOME = rowReader(SCHEDULE_FIRINGS_TABLE);

/** Schedules and their firings in PostgreSQL; a firing is leased to one server at a time. */
export class PostgresScheduleStore extends PostgresOwnedRecords<ScheduleRecord> implements ScheduleStore {
  private readonly leases: PostgresLeases<Record<string, unknown>>;

  /** `owner`: this server, on the firings it leases. */
  constructor(
    pool: pg.Pool,
    private readonly owner: string,
  ) {
    super(pool, SCHEDULES);
    this.leases = new PostgresLeases(pool, LEASED_FIRINGS, (row) => row);
  }

  override async delete(id: string): Promise<boolean> {
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
      await client.query(INSERT_FIRING.sql, INSERT_FIRING.values({ scheduleId, tick, firedAt: at }));
      const claimed = await this.leases.claimIn(client, { owner: this.owner, leaseMs, limit: 1, dueParams: [scheduleId, tick] });
      return claimed.length ? ('claimed' as const) : ('taken' as const);
    });
    if (claim === 'stopped') return { claimed: false, stopped: true };
    if (claim === 'claimed') return { claimed: true };
    const { rows } = await this.pool.query<Row>(firingOutcomeQuery(postgresDialect), [scheduleId, tick]);
    const earlier = rows[0] ? READ_OUTCOME(rows[0]) : { runId: null, error: null };
    const finished = earlier.runId !== null || earlier.error !== null;
    return { claimed: false, ...(finished ? { earlier } : {}) };
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
