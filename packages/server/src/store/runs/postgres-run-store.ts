import type pg from 'pg';
import type { RequestUsage, RunBudget, RunStatusMessage } from '@agent-runs/core/contract';
import type { ProcessGroupRecord } from './process-group-record.js';
import { LIST_OBJECT_ROWS, runListPage, runListStatement, runCountStatement } from './run-list-query.js';
import { HAS_ARTIFACTS, leasedRuns, RUN_COLUMNS, RUNS_TABLE, toRunRecord, toRunRecordWithArtifacts, type RunRow } from './run-table.js';
import { PostgresLeases } from '../postgres-leases.js';
import { postgresDialect } from '../sql-dialect.js';
import { insertManyStatement, insertStatement, rowReader, type Row } from '../table-description.js';
import { attachmentsQuery, RUN_ATTACHMENTS_TABLE } from './run-attachment-table.js';
import { metadataRows, RUN_METADATA_TABLE } from './run-metadata-table.js';
import { processGroupsQuery, RUN_PROCESSES_TABLE, setProcessStatement } from './run-process-table.js';
import { addSpendStatement, SPEND_OF_PRINCIPAL_DAY, spendDelta, toPrincipalSpend, utcDay, type PrincipalSpend } from '../spend/principal-spend-table.js';
import { inTransaction } from '../postgres-transaction.js';
import { weightRows } from './principal-turn-weights.js';
import { principalLock } from './principal-lock.js';
import { quotaReached, standingStatement, toPrincipalStanding, type PrincipalStanding, type StandingRow, type StandingWanted } from './principal-standing.js';
import type { NewRun, RunRecord, StoredAttachment } from './run-record.js';
import { withFirstRunEvent } from '../run-events/postgres-run-event-store.js';
import type { CreatedRunEvent, CreateResult, RunListPage, RunListQuery, RunStore, RunTransition } from './run-store.js';
import { ACTIVE_COUNTS_SQL, SERVER_HOSTS, toActiveCount, type ActiveCount, type WorkerHosts } from './run-store.js';

/** ON CONFLICT: a key used before inserts nothing, and the earlier run answers. */
const INSERT_RUN = insertStatement(
  RUNS_TABLE,
  postgresDialect,
  'ON CONFLICT (creator_uid, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING seq',
);

/** The same insert, writing the run's first event in the same statement. */
const INSERT_RUN_WITH_EVENT = withFirstRunEvent(INSERT_RUN.sql, RUNS_TABLE.columns.filter((c) => c.write).length + 1);

/** A run's metadata pairs in one statement; its attachments one statement each (their bytes may be large). */
const INSERT_METADATA = insertManyStatement(RUN_METADATA_TABLE);
const INSERT_ATTACHMENT = insertStatement(RUN_ATTACHMENTS_TABLE, postgresDialect);
const READ_ATTACHMENT = rowReader(RUN_ATTACHMENTS_TABLE);
const SET_PROCESS = setProcessStatement(postgresDialect);
const ADD_SPEND = addSpendStatement((n) => `$${n}`);
/** RUN_COLUMNS named as the runs table's, for an UPDATE … FROM another row set. */
const RUN_COLUMNS_OF_RUNS = RUN_COLUMNS.split(', ').map((column) => `runs.${column}`).join(', ');
const READ_PROCESS = rowReader(RUN_PROCESSES_TABLE);

function created(run: NewRun, seq: string): CreateResult {
  const { request: _request, idempotencyKey: _key, requestHash: _hash, attachments: _files, quota: _quota, ...record } = run;
  return { kind: 'created', run: { ...record, seq: Number(seq) } };
}

/** The lock a principal's creates under its quota take turns on (principal-lock.ts). */
const PRINCIPAL_LOCK = `SELECT ${principalLock('$1')}`;

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
    if (run.quota || (run.childLimit !== undefined && run.parentRunId)) return this.createHeld(run, event);
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
    return inTransaction(this.pool, (client) => this.insertIn(client, run, event));
  }

  /**
   * A run held to its principal's quota or its parent's limit of children: the creates of one
   * principal take turns on a lock of its name, those of one parent's children on the parent's
   * row (FOR UPDATE), each in that order, so each reads the standing and counts the siblings
   * committed before it, on whichever server of the database they arrive. The quota is held
   * before the key is looked up (a replay over it is refused, as a create is); a key used
   * before still answers its run.
   */
  private async createHeld(run: NewRun, event: CreatedRunEvent | undefined): Promise<CreateResult> {
    return inTransaction(this.pool, async (client) => {
      let standing: PrincipalStanding | undefined;
      if (run.quota) {
        await client.query({ name: 'agent-runs-principal-lock', text: PRINCIPAL_LOCK, values: [run.creator.uid ?? ''] });
        // A statement after the lock: its snapshot holds every create that held the lock before.
        standing = await this.readStanding(client, run.creator.uid ?? '', run.quota.wanted);
        if (quotaReached(run.quota.limits, standing)) return { kind: 'quota_exceeded', standing };
      }
      const { parentRunId, childLimit } = run;
      if (childLimit !== undefined && parentRunId) await client.query('SELECT 1 FROM runs WHERE id = $1 FOR UPDATE', [parentRunId]);
      if (run.idempotencyKey !== null) {
        const { rows } = await client.query('SELECT 1 FROM runs WHERE creator_uid = $1 AND idempotency_key = $2', [run.creator.uid ?? '', run.idempotencyKey]);
        if (rows.length) return { ...(await this.byIdempotencyKey(client, run)), standing };
      }
      if (childLimit !== undefined && parentRunId) {
        const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM runs WHERE parent_run_id = $1', [parentRunId]);
        if (Number(rows[0]?.n ?? 0) >= childLimit) return { kind: 'parent_full', standing };
      }
      return { ...(await this.insertIn(client, run, event)), standing };
    });
  }

  /** The run's row (with its first event), metadata and attachments, in the caller's transaction. */
  private async insertIn(client: pg.ClientBase, run: NewRun, event: CreatedRunEvent | undefined): Promise<CreateResult> {
    // ON CONFLICT waits for a create racing under the same key to commit, then inserts nothing.
    const inserted = await client.query<{ seq: string }>(
      event ? INSERT_RUN_WITH_EVENT : INSERT_RUN.sql,
      event ? [...INSERT_RUN.values(run), run.id, event.data, event.runVersion] : INSERT_RUN.values(run),
    );
    const row = inserted.rows[0];
    if (!row) return this.byIdempotencyKey(client, run);
    const pairs = metadataRows(run.id, run.metadata);
    if (pairs.length) await client.query(INSERT_METADATA.sql, INSERT_METADATA.values(pairs));
    for (const [position, attachment] of (run.attachments ?? []).entries()) {
      await client.query(INSERT_ATTACHMENT.sql, INSERT_ATTACHMENT.values({ runId: run.id, position, attachment }));
    }
    return created(run, row.seq);
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

  async claimsOf(ids: readonly string[]): Promise<Map<string, string | undefined>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.pool.query<{ id: string; started_at: string | null }>('SELECT id, started_at FROM runs WHERE id = ANY($1::text[])', [[...ids]]);
    return new Map(rows.map((row) => [row.id, row.started_at ?? undefined]));
  }

  async getBySession(sessionId: string): Promise<RunRecord | undefined> {
    return this.one(`SELECT ${RUN_COLUMNS}, ${HAS_ARTIFACTS} FROM runs WHERE session_id = $1`, [sessionId]);
  }

  async getAttachments(id: string): Promise<StoredAttachment[]> {
    const { rows } = await this.pool.query<Row>(attachmentsQuery('$1'), [id]);
    return rows.map(READ_ATTACHMENT);
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

  async count(query: RunListQuery): Promise<number> {
    const { sql, params } = runCountStatement(query, postgresDialect);
    const { rows } = await this.pool.query<{ n: string }>(sql, params);
    return Number(rows[0]?.n ?? 0);
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
    const usage = state.requestUsage;
    if (!usage) return this.one(`UPDATE runs SET ${sets.join(', ')} WHERE id = $${params.length} RETURNING ${RUN_COLUMNS}`, params);
    // The usage stored before (read under the row's lock, in the same statement), the new usage
    // and the spend it adds, in one transaction: the day's row is shared by every server.
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<RunRow & { before_usage: string | null }>(
        `UPDATE runs SET ${sets.join(', ')} FROM (SELECT id AS before_id, request_usage AS before_usage FROM runs WHERE id = $${params.length} FOR UPDATE) AS before
         WHERE runs.id = before.before_id RETURNING ${RUN_COLUMNS_OF_RUNS}, before.before_usage`,
        params,
      );
      const row = rows[0];
      if (!row) return undefined;
      const run = toRunRecord(row);
      const delta = spendDelta(row.before_usage ? (JSON.parse(row.before_usage) as RequestUsage) : undefined, usage);
      if (delta.nanoUsd > 0 || delta.tokens > 0) {
        const at = updatedAt ?? new Date().toISOString();
        await client.query({ name: 'agent-runs-add-spend', text: ADD_SPEND, values: [run.creator.uid ?? '', utcDay(at), delta.nanoUsd, delta.tokens, at] });
      }
      return run;
    });
  }

  async spendOf(creatorUid: string, day: string): Promise<PrincipalSpend> {
    const { rows } = await this.pool.query<StandingRow>({ name: 'agent-runs-spend-of', text: SPEND_OF_PRINCIPAL_DAY('$1', '$2'), values: [creatorUid, day] });
    return toPrincipalSpend(rows[0]);
  }

  async setBudget(id: string, budget: RunBudget): Promise<RunRecord | undefined> {
    // In place, so no other member of the configuration is written back from an older read.
    return this.one(`UPDATE runs SET agent_config = jsonb_set(agent_config::jsonb, '{budget}', $1::jsonb)::text WHERE id = $2 RETURNING ${RUN_COLUMNS}`, [JSON.stringify(budget), id]);
  }

  async setProcessGroup(id: string, group: ProcessGroupRecord): Promise<void> {
    await this.pool.query(SET_PROCESS.sql, SET_PROCESS.values({ id, group }));
  }

  async processGroups(states: readonly string[]): Promise<(ProcessGroupRecord & { id: string })[]> {
    if (states.length === 0) return [];
    const { rows } = await this.pool.query<Row>(processGroupsQuery('state = ANY($1::text[])'), [[...states]]);
    return rows.map(READ_PROCESS);
  }

  async claimNext(owner: string, at: string, leaseMs: number, hosts: WorkerHosts = SERVER_HOSTS): Promise<RunRecord | undefined> {
    const [run] = await this.leases.claim({ owner, leaseMs, limit: 1, dueParams: hosts, setParams: [at, at] });
    return run;
  }

  async standingOf(creatorUid: string, wanted: StandingWanted): Promise<PrincipalStanding> {
    return this.readStanding(this.pool, creatorUid, wanted);
  }

  private async readStanding(client: pg.ClientBase | pg.Pool, creatorUid: string, wanted: StandingWanted): Promise<PrincipalStanding> {
    const read = standingStatement(wanted, postgresDialect);
    const { rows } = await client.query<StandingRow>({ name: `agent-runs-standing-${read.key}`, text: read.sql, values: read.values(creatorUid, wanted) });
    return toPrincipalStanding(rows[0]);
  }

  async setTurnWeights(weights: Readonly<Record<string, number>>): Promise<void> {
    const rows = weightRows(weights);
    // One transaction, so another server's turn never reads the weights half replaced.
    await inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM principal_turn_weights');
      if (rows.length) {
        await client.query('INSERT INTO principal_turn_weights (creator_uid, weight) SELECT * FROM unnest($1::text[], $2::integer[])', [rows.map(([p]) => p), rows.map(([, w]) => w)]);
      }
    });
  }

  async activeCounts(): Promise<ActiveCount[]> {
    const { rows } = await this.pool.query<Parameters<typeof toActiveCount>[0]>(ACTIVE_COUNTS_SQL);
    return rows.map(toActiveCount);
  }

  async failAll(states: readonly string[], message: RunStatusMessage, at: string, except: readonly string[] = []): Promise<number> {
    if (states.length === 0) return 0;
    const result = await this.pool.query(
      `UPDATE runs SET state = 'FAILED', updated_at = ${postgresDialect.nextStamp('$1')}, status_message = $2, owner = NULL, lease_expires_at = NULL
       WHERE state = ANY($3::text[]) AND id <> ALL($4::text[])`,
      [at, JSON.stringify(message), [...states], [...except]],
    );
    return result.rowCount ?? 0;
  }

  async inProgressOnWorkers(): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>("SELECT id FROM runs WHERE state = 'INPROGRESS' AND worker_host <> ''");
    return rows.map((row) => row.id);
  }

  /** The pool belongs to the storage; its close() ends it. */
  async close(): Promise<void> {}
}
