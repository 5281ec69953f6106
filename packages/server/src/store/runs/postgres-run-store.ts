import type pg from 'pg';
import type { RequestUsage, RunStatusMessage } from '@agent-runs/core/contract';
import type { ProcessGroupRecord } from './process-group-record.js';
import { LIST_OBJECT_ROWS, runListPage, runListStatement } from './run-list-query.js';
import { HAS_ARTIFACTS, leasedRuns, RUN_COLUMNS, RUNS_TABLE, toRunRecord, toRunRecordWithArtifacts, type RunRow } from './run-table.js';
import { PostgresLeases } from '../postgres-leases.js';
import { postgresDialect } from '../sql-dialect.js';
import { insertStatement } from '../table-description.js';
import { inTransaction } from '../postgres-transaction.js';
import type { NewRun, RunRecord, StoredAttachment } from './run-record.js';
import { withFirstRunEvent } from '../run-events/postgres-run-event-store.js';
import type { CreatedRunEvent, CreateResult, RunListPage, RunListQuery, RunStore, RunTransition } from './run-store.js';
import { SERVER_HOSTS, type WorkerHosts } from './run-store.js';

/** ON CONFLICT: a key used before inserts nothing, and the earlier run answers. */
const INSERT_RUN = insertStatement(
  RUNS_TABLE,
  postgresDialect,
  'ON CONFLICT (creator_uid, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING seq',
);

/** The same insert, writing the run's first event in the same statement. */
const INSERT_RUN_WITH_EVENT = withFirstRunEvent(INSERT_RUN.sql, RUNS_TABLE.columns.filter((c) => c.write).length + 1);

function created(run: NewRun, seq: string): CreateResult {
  const { request: _request, idempotencyKey: _key, requestHash: _hash, attachments: _files, ...record } = run;
  return { kind: 'created', run: { ...record, seq: Number(seq) } };
}

// A transition out of INPROGRESS ends the lease: the run no longer belongs to a server.
const LET_GO = `owner = CASE WHEN state = 'INPROGRESS' AND $1::text <> 'INPROGRESS' THEN NULL ELSE owner END,
  lease_expires_at = CASE WHEN state = 'INPROGRESS' AND $1::text <> 'INPROGRESS' THEN NULL ELSE lease_expires_at END`;

/** Runs in PostgreSQL: the same rows, filters and pages as the SQLite store, shared by any number of servers. */
export class PostgresRunStore implements RunStore {
  /** The leases on the runs in progress. */
  readonly leases: PostgresLeases<RunRecord>;

  constructor(private readonly pool: pg.Pool) {
    this.leases = new PostgresLeases(pool, leasedRuns(postgresDialect), toRunRecord);
  }

  /**
   * The insert, its first event, its metadata rows and attachments in one transaction; a key
   * used before answers the earlier run. A run without metadata or attachments (most) is one
   * statement (the insert and its event) and no transaction around it.
   */
  async create(run: NewRun, event?: CreatedRunEvent): Promise<CreateResult> {
    if (!Object.keys(run.metadata ?? {}).length && !run.attachments?.length) {
      const inserted = await this.pool.query<{ seq: string }>(
        event
          ? { name: 'agent-runs-insert-run-with-event', text: INSERT_RUN_WITH_EVENT, values: [...INSERT_RUN.values(run), run.id, event.data, event.runVersion] }
          : { name: 'agent-runs-insert-run', text: INSERT_RUN.sql, values: INSERT_RUN.values(run) },
      );
      const row = inserted.rows[0];
      // A new statement sees the run a racing create committed under the key.
      return row ? created(run, row.seq) : this.byIdempotencyKey(this.pool, run);
    }
    return inTransaction(this.pool, async (client) => {
      // ON CONFLICT waits for a create racing under the same key to commit, then inserts nothing.
      const inserted = await client.query<{ seq: string }>(
        event ? INSERT_RUN_WITH_EVENT : INSERT_RUN.sql,
        event ? [...INSERT_RUN.values(run), run.id, event.data, event.runVersion] : INSERT_RUN.values(run),
      );
      const row = inserted.rows[0];
      if (!row) return this.byIdempotencyKey(client, run);
      const pairs = Object.entries(run.metadata ?? {});
      if (pairs.length) {
        await client.query('INSERT INTO run_metadata (run_id, key, value) SELECT $1, k, v FROM unnest($2::text[], $3::text[]) AS p(k, v)', [
          run.id,
          pairs.map(([k]) => k),
          pairs.map(([, v]) => v),
        ]);
      }
      for (const [position, file] of (run.attachments ?? []).entries()) {
        await client.query('INSERT INTO run_attachments (run_id, position, file_name, mime_type, data) VALUES ($1, $2, $3, $4, $5)', [
          run.id,
          position,
          file.fileName,
          file.mimeType,
          file.data,
        ]);
      }
      return created(run, row.seq);
    });
  }

  private async byIdempotencyKey(client: pg.ClientBase | pg.Pool, run: NewRun): Promise<CreateResult> {
    const { rows } = await client.query<RunRow>(
      `SELECT ${RUN_COLUMNS}, request_hash FROM runs WHERE creator_uid = $1 AND idempotency_key = $2`,
      [run.creator.uid ?? '', run.idempotencyKey],
    );
    const existing = rows[0];
    if (!existing) throw new Error(`The run created under idempotency key ${run.idempotencyKey} could not be read back.`);
    return { kind: existing['request_hash'] === run.requestHash ? 'replayed' : 'conflict', run: toRunRecord(existing) };
  }

  /** The first row `sql` answers as a run; `name` prepares the statement once per connection (for the hottest reads). */
  private async one(sql: string, params: unknown[], name?: string): Promise<RunRecord | undefined> {
    const { rows } = await this.pool.query<RunRow>({ text: sql, values: params, ...(name ? { name } : {}) });
    const row = rows[0];
    if (!row) return undefined;
    return row['has_artifacts'] === undefined ? toRunRecord(row) : toRunRecordWithArtifacts(row);
  }

  async get(id: string): Promise<RunRecord | undefined> {
    return this.one(`SELECT ${RUN_COLUMNS}, ${HAS_ARTIFACTS} FROM runs WHERE id = $1`, [id], 'agent-runs-run-by-id');
  }

  async getBySession(sessionId: string): Promise<RunRecord | undefined> {
    return this.one(`SELECT ${RUN_COLUMNS}, ${HAS_ARTIFACTS} FROM runs WHERE session_id = $1`, [sessionId]);
  }

  async getAttachments(id: string): Promise<StoredAttachment[]> {
    const { rows } = await this.pool.query<{ file_name: string; mime_type: string; data: Buffer }>(
      'SELECT file_name, mime_type, data FROM run_attachments WHERE run_id = $1 ORDER BY position',
      [id],
    );
    return rows.map((r) => ({ fileName: r.file_name, mimeType: r.mime_type, data: r.data }));
  }

  async conversationRuns(conversationId: string): Promise<RunRecord[]> {
    const { rows } = await this.pool.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE conversation_id = $1 ORDER BY seq`, [conversationId]);
    return rows.map((row) => toRunRecord(row));
  }

  async list(query: RunListQuery): Promise<RunListPage> {
    const { sql, params } = runListStatement(query, postgresDialect);
    const { rows } = await this.pool.query<RunRow>(sql, params);
    return runListPage(rows, query, LIST_OBJECT_ROWS);
  }

  /** One UPDATE guarded by the state, so of two racing transitions only one applies. */
  async transition(id: string, change: RunTransition): Promise<RunRecord | undefined> {
    const params: unknown[] = [change.to, change.at];
    const sets = ['state = $1', `updated_at = ${postgresDialect.nextStamp('$2')}`, LET_GO];
    if (change.startedAt !== undefined) params.push(change.startedAt), sets.push(`started_at = $${params.length}`);
    if (change.statusMessage !== undefined) {
      params.push(change.statusMessage ? JSON.stringify(change.statusMessage) : null);
      sets.push(`status_message = $${params.length}`);
    }
    params.push(id, [...change.from]);
    let where = `id = $${params.length - 1} AND state = ANY($${params.length}::text[])`;
    if (change.claim) params.push(change.claim), (where += ` AND started_at = $${params.length}`);
    return this.one(`UPDATE runs SET ${sets.join(', ')} WHERE ${where} RETURNING ${RUN_COLUMNS}`, params);
  }

  async setHarnessState(id: string, state: { requestUsage?: RequestUsage; harnessSessionId?: string }, updatedAt?: string): Promise<RunRecord | undefined> {
    const sets: string[] = [];
    const params: unknown[] = [];
    if (state.requestUsage !== undefined) params.push(JSON.stringify(state.requestUsage)), sets.push(`request_usage = $${params.length}`);
    if (state.harnessSessionId !== undefined) params.push(state.harnessSessionId), sets.push(`harness_session_id = $${params.length}`);
    if (updatedAt !== undefined) params.push(updatedAt), sets.push(`updated_at = ${postgresDialect.nextStamp(`$${params.length}`)}`);
    if (sets.length === 0) return this.get(id);
    params.push(id);
    return this.one(`UPDATE runs SET ${sets.join(', ')} WHERE id = $${params.length} RETURNING ${RUN_COLUMNS}`, params);
  }

  async setProcessGroup(id: string, group: ProcessGroupRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO run_processes (id, pgid, start_time) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET pgid = excluded.pgid, start_time = excluded.start_time`,
      [id, group.pgid, group.startTime],
    );
  }

  async processGroups(states: readonly string[]): Promise<(ProcessGroupRecord & { id: string })[]> {
    if (states.length === 0) return [];
    const { rows } = await this.pool.query<{ id: string; pgid: number; start_time: string | null }>(
      'SELECT p.id, p.pgid, p.start_time FROM run_processes p JOIN runs r ON r.id = p.id WHERE r.state = ANY($1::text[])',
      [[...states]],
    );
    return rows.map((row) => ({ id: row.id, pgid: row.pgid, startTime: row.start_time }));
  }

  async claimNext(owner: string, at: string, leaseMs: number, hosts: WorkerHosts = SERVER_HOSTS): Promise<RunRecord | undefined> {
    const [run] = await this.leases.claim({ owner, leaseMs, limit: 1, dueParams: hosts, setParams: [at, at] });
    return run;
  }

  async failAll(states: readonly string[], message: RunStatusMessage, at: string): Promise<number> {
    if (states.length === 0) return 0;
    const result = await this.pool.query(
      `UPDATE runs SET state = 'FAILED', updated_at = ${postgresDialect.nextStamp('$1')}, status_message = $2, owner = NULL, lease_expires_at = NULL
       WHERE state = ANY($3::text[])`,
      [at, JSON.stringify(message), [...states]],
    );
    return result.rowCount ?? 0;
  }

  /** The pool belongs to the storage; its close() ends it. */
  async close(): Promise<void> {}
}
