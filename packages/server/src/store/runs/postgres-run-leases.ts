import type pg from 'pg';
import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { RunLeases } from '../cluster.js';
import { PostgresLeases } from '../postgres-leases.js';
import { leasedRuns, RUN_COLUMNS, toRunRecord, type RunRow } from './run-table.js';
import { postgresDialect } from '../sql-dialect.js';
import type { RunRecord } from './run-record.js';

/** The leases on INPROGRESS runs (`owner`, `lease_expires_at`) of the servers sharing the database. */
export class PostgresRunLeases implements RunLeases {
  private readonly leases: PostgresLeases<RunRecord>;

  constructor(private readonly pool: pg.Pool) {
    this.leases = new PostgresLeases(pool, leasedRuns(postgresDialect), toRunRecord);
  }

  renew(owner: string, leaseMs: number): Promise<string[]> {
    return this.leases.renew(owner, leaseMs);
  }

  /** The message names each run's owner, so it is written per run. */
  expire(message: (owner: string | null) => RunStatusMessage, at: string): Promise<RunRecord[]> {
    return this.leases.takeOverExpired(async (expired, client) => {
      if (expired.length === 0) return [];
      const { rows } = await client.query<RunRow>(
        `UPDATE runs SET state = 'FAILED', updated_at = ${postgresDialect.nextStamp('$1')}, status_message = m.message, owner = NULL, lease_expires_at = NULL
         FROM unnest($2::text[], $3::text[]) AS m(id, message)
         WHERE runs.id = m.id AND runs.state = 'INPROGRESS' RETURNING ${RUN_COLUMNS.split(', ').map((c) => `runs.${c}`).join(', ')}`,
        [at, expired.map((r) => r.key), expired.map((r) => JSON.stringify(message(r.owner)))],
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
