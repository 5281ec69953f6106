import type pg from 'pg';
import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { RunLeases } from './cluster.js';
import { RUN_COLUMNS, toRunRecord, type RunRow } from './run-table.js';
import { inTransaction } from './postgres-transaction.js';
import { postgresDialect } from './sql-dialect.js';
import type { RunRecord } from './run-record.js';

/** Leases on INPROGRESS runs (`owner`, `lease_expires_at`), always timed by the database's `now()`. */
export class PostgresRunLeases implements RunLeases {
  constructor(private readonly pool: pg.Pool) {}

  async renew(owner: string, leaseMs: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE runs SET lease_expires_at = now() + $2::double precision * interval '1 millisecond'
       WHERE owner = $1 AND state = 'INPROGRESS' RETURNING id`,
      [owner, leaseMs],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The expired runs are locked with SKIP LOCKED first, so of two servers expiring at once
   * each run goes to one; the message names each run's owner, so it is written per run.
   */
  async expire(message: (owner: string | null) => RunStatusMessage, at: string): Promise<RunRecord[]> {
    return inTransaction(this.pool, async (client) => {
      const expired = await client.query<{ seq: string; owner: string | null }>(
        `SELECT seq, owner FROM runs WHERE state = 'INPROGRESS' AND lease_expires_at < now() FOR UPDATE SKIP LOCKED`,
      );
      if (expired.rows.length === 0) return [];
      const { rows } = await client.query<RunRow>(
        `UPDATE runs SET state = 'FAILED', updated_at = ${postgresDialect.nextStamp('$1')}, status_message = m.message, owner = NULL, lease_expires_at = NULL
         FROM unnest($2::bigint[], $3::text[]) AS m(seq, message)
         WHERE runs.seq = m.seq AND runs.state = 'INPROGRESS' RETURNING ${RUN_COLUMNS.split(', ').map((c) => `runs.${c}`).join(', ')}`,
        [at, expired.rows.map((r) => r.seq), expired.rows.map((r) => JSON.stringify(message(r.owner)))],
      );
      return rows.map(toRunRecord).sort((a, b) => a.seq - b.seq);
    });
  }

  async unlogged(after: string, through: string, limit: number): Promise<RunRecord[]> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT ${RUN_COLUMNS.split(', ').map((c) => `r.${c}`).join(', ')} FROM runs r LEFT JOIN run_event_logs l ON l.run_id = r.id
       WHERE r.updated_at >= $1 AND r.updated_at <= $2 AND l.run_version IS DISTINCT FROM r.updated_at || ' ' || r.state
       ORDER BY r.updated_at, r.seq LIMIT $3`,
      [after, through, limit],
    );
    return rows.map(toRunRecord);
  }
}
