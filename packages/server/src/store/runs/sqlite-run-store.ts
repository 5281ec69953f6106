import type Database from 'better-sqlite3';
import { openDatabase } from '../sqlite-driver.js';
import type { RequestUsage, RunBudget, RunStatusMessage } from '@agent-runs/core/contract';
import type { ProcessGroupRecord } from './process-group-record.js';
import type { NewRun, RunRecord, StoredAttachment } from './run-record.js';
import { LIST_ARRAY_ROWS, runListPage, runListStatement, runCountStatement } from './run-list-query.js';
import { HAS_ARTIFACTS, leasedRuns, RUN_COLUMNS as COLUMNS, RUNS_TABLE, toRunRecord as toRecord, type RunRow } from './run-table.js';
import { SQLITE_NEXT_TURN } from './run-turns.js';
import { weightRows } from './principal-turn-weights.js';
import { quotaReached, standingStatement, toPrincipalStanding, type PrincipalStanding, type StandingRow, type StandingWanted } from './principal-standing.js';
import type { CreatedRunEvent, CreateResult, RunListPage, RunListQuery, RunStore, RunTransition } from './run-store.js';
import { ACTIVE_COUNTS_SQL, SERVER_HOSTS, toActiveCount, type ActiveCount, type WorkerHosts } from './run-store.js';
import { migrateSqlite } from '../sqlite-migrations.js';
import { SqliteRunAttachments } from './sqlite-run-attachments.js';
import { sqliteFirstRunEvent } from '../run-events/sqlite-run-event-store.js';
import { SqliteRunMetadata } from './sqlite-run-metadata.js';
import { sqliteDialect } from '../sql-dialect.js';
import { SqliteWriteBatch } from '../sqlite-write-batch.js';
import { SqliteCheckpointer } from '../sqlite-checkpointer.js';
import { SqliteLeases } from '../sqlite-leases.js';
import { sqliteOrFail } from '../sqlite-or-fail.js';
import { arrayRowReader, insertStatement, rowReader, type Row } from '../table-description.js';
import { addSpendStatement, SPEND_OF_PRINCIPAL_DAY, spendDelta, toPrincipalSpend, utcDay, type PrincipalSpend } from '../spend/principal-spend-table.js';
import { processGroupsQuery, RUN_PROCESSES_TABLE, setProcessStatement } from './run-process-table.js';

/** A run's new `updated_at` from the time given (the first `?`): `SqlDialect.nextStamp` says why. */
const STAMP = sqliteDialect.nextStamp('?');

const INSERT_RUN = insertStatement(RUNS_TABLE, sqliteDialect);
const ADD_SPEND = addSpendStatement(() => '?');
const SPEND_OF = SPEND_OF_PRINCIPAL_DAY('?', '?');
/** A run read in raw mode (an array in RUN_COLUMNS order, then has_artifacts): no object of column names per read. */
const readRun = arrayRowReader(RUNS_TABLE);
const SET_PROCESS = setProcessStatement(sqliteDialect);
const READ_PROCESS = rowReader(RUN_PROCESSES_TABLE);
const HAS_ARTIFACTS_AT = RUNS_TABLE.columns.filter((c) => c.read).length;
/** SQLite's own length of the WAL, in pages, at which a commit checkpoints. */
const DEFAULT_CHECKPOINT_PAGES = 1000;
/** The same with the checkpoints made in the background: only if those fail or fall far behind (about 40 MB). */
const BACKSTOP_CHECKPOINT_PAGES = 10_000;

function readRunWithArtifacts(row: unknown[]): RunRecord {
  const run = readRun(row);
  run.hasArtifacts = Boolean(row[HAS_ARTIFACTS_AT]);
  return run;
}

/** SQLite storage: a file in WAL mode, or `:memory:` for tests. */
/** The most runs `claimsOf` reads in one statement. */
const CLAIMS_PER_READ = 32;

export class SqliteRunStore implements RunStore {
  readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly insertRun: Database.Statement;
  private readonly insertOne: (run: NewRun, event: CreatedRunEvent | undefined) => Database.RunResult;
  private readonly insertFirstEvent: (runId: string, event: CreatedRunEvent) => void;
  private readonly byId: Database.Statement;
  /** The turn a queued run takes as it is created (run-turns.ts). */
  private readonly nextTurn: Database.Statement;
  private readonly bySession: Database.Statement;
  private readonly metadata: SqliteRunMetadata;
  private readonly attachments: SqliteRunAttachments;
  /** Creates, transitions and the conversation's entries, committed together per turn of the event loop. */
  readonly writes: SqliteWriteBatch;
  private checkpointer: SqliteCheckpointer | undefined;
  /** The leases on the runs in progress (let go as each leaves INPROGRESS). */
  readonly leases: SqliteLeases<RunRecord>;

  constructor(filename: string) {
    this.db = openDatabase(filename);
    if (filename !== ':memory:') {
      this.db.pragma('journal_mode = WAL');
      // WAL with NORMAL stays durable across a process crash; only power loss may drop the last commits.
      this.db.pragma('synchronous = NORMAL');
      // Reads through a memory map and a larger cache: a get is then a few memory lookups, not system calls.
      this.db.pragma('mmap_size = 1073741824');
      this.db.pragma('cache_size = -65536');
    }
    // A statement that fires a trigger (the webhook outbox's) keeps a statement journal; in a
    // temporary file that is a write per page touched, about half of an insert's cost.
    this.db.pragma('temp_store = MEMORY');
    this.db.pragma('busy_timeout = 5000');
    migrateSqlite(this.db);
    this.writes = new SqliteWriteBatch(this.db);
    this.leases = new SqliteLeases(this.db, leasedRuns(sqliteDialect), toRecord);
    this.insertRun = this.db.prepare(sqliteOrFail(INSERT_RUN.sql));
    this.metadata = new SqliteRunMetadata(this.db);
    this.attachments = new SqliteRunAttachments(this.db);
    this.insertFirstEvent = sqliteFirstRunEvent(this.db);
    this.insertOne = this.db.transaction((run: NewRun, event: CreatedRunEvent | undefined) => this.insertNow(run, event));
    this.nextTurn = this.db.prepare(SQLITE_NEXT_TURN);
    this.byId = this.db.prepare(`SELECT ${COLUMNS}, ${HAS_ARTIFACTS} FROM runs WHERE id = ?`).raw(true);
    this.bySession = this.db.prepare(`SELECT ${COLUMNS}, ${HAS_ARTIFACTS} FROM runs WHERE session_id = ?`).raw(true);
  }

  /** The run's row, metadata, attachments and first event; inside a transaction. */
  private insertNow(run: NewRun, event?: CreatedRunEvent): Database.RunResult {
    const info = this.insertRun.run(this.insertValues(run));
    this.metadata.add(run.id, run.metadata);
    this.attachments.add(run.id, run.attachments);
    if (event) this.insertFirstEvent(run.id, event);
    return info;
  }

  /** The insert's values, a queued run's turn among them (read in the insert's transaction). */
  private insertValues(run: NewRun): unknown[] {
    const turn = run.state === 'QUEUED' ? (this.nextTurn.get({ host: run.workerHost ?? '', creator: run.creator.uid ?? '' }) as { turn: number }).turn : 0;
    return INSERT_RUN.values({ ...run, turn });
  }

  /** A statement prepared once per SQL text; `raw` ones (rows as arrays) are kept apart. */
  private statement(sql: string, raw = false): Database.Statement {
    const key = raw ? `raw:${sql}` : sql;
    let stmt = this.statements.get(key);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (raw) stmt.raw(true);
      this.statements.set(key, stmt);
    }
    return stmt;
  }

  /**
   * Creates that arrive together are written in one transaction (group commit): one WAL
   * commit for many runs, and each caller is answered only once its run is stored.
   */
  create(run: NewRun, event?: CreatedRunEvent): Promise<CreateResult> {
    return this.writes.run(
      () => this.createInBatch(run, event),
      () => this.createNow(run, event),
    );
  }

  private createNow(run: NewRun, event: CreatedRunEvent | undefined): CreateResult {
    const standing = this.quotaStanding(run);
    if (standing && quotaReached(run.quota!.limits, standing)) return { kind: 'quota_exceeded', standing };
    return { ...this.createUnderQuota(run, event), standing };
  }

  private createUnderQuota(run: NewRun, event: CreatedRunEvent | undefined): CreateResult {
    const earlier = this.byIdempotencyKey(run);
    if (earlier) return earlier;
    if (this.parentFull(run)) return { kind: 'parent_full' };
    try {
      return created(run, this.insertOne(run, event));
    } catch (error) {
      const raced = this.racedOn(run, error);
      if (raced) return raced;
      throw error;
    }
  }

  /**
   * `createNow` inside the batch's transaction, without a savepoint per run (a savepoint
   * journals every page the run touches): the row is written first and a row stopped by a
   * constraint writes nothing, so only an error after it (which fails the whole batch, then
   * retried run by run) could leave part of a run behind.
   */
  private createInBatch(run: NewRun, event: CreatedRunEvent | undefined): CreateResult {
    const standing = this.quotaStanding(run);
    if (standing && quotaReached(run.quota!.limits, standing)) return { kind: 'quota_exceeded', standing };
    return { ...this.insertInBatch(run, event), standing };
  }

  private insertInBatch(run: NewRun, event: CreatedRunEvent | undefined): CreateResult {
    const earlier = this.byIdempotencyKey(run);
    if (earlier) return earlier;
    if (this.parentFull(run)) return { kind: 'parent_full' };
    let info: Database.RunResult;
    try {
      info = this.insertRun.run(this.insertValues(run));
    } catch (error) {
      const raced = this.racedOn(run, error);
      if (raced) return raced;
      throw error;
    }
    this.metadata.add(run.id, run.metadata);
    this.attachments.add(run.id, run.attachments);
    if (event) this.insertFirstEvent(run.id, event);
    return created(run, info);
  }

  /**
   * Whether the run's parent has its `childLimit` of children already. The count and the insert
   * after it are one synchronous step of the one server that holds the file (better-sqlite3 does
   * not yield between them), and a batch's earlier creates are in the count: nothing races them.
   */
  private parentFull(run: NewRun): boolean {
    if (run.childLimit === undefined || !run.parentRunId) return false;
    const { n } = this.statement('SELECT count(*) AS n FROM runs WHERE parent_run_id = ?').get(run.parentRunId) as { n: number };
    return n >= run.childLimit;
  }

  /**
   * Where the run's principal stands on the counters its quota reads, when it is held to one.
   * Like parentFull, read in the same synchronous step as the insert after it, with a batch's
   * earlier creates counted (the triggers moved the counters): creates racing cannot both pass.
   */
  private quotaStanding(run: NewRun): PrincipalStanding | undefined {
    return run.quota ? this.readStanding(run.creator.uid ?? '', run.quota.wanted) : undefined;
  }

  private readStanding(creatorUid: string, wanted: StandingWanted): PrincipalStanding {
    const read = standingStatement(wanted, sqliteDialect);
    return toPrincipalStanding(this.statement(read.sql).get(...read.values(creatorUid, wanted)) as StandingRow);
  }

  /** Another process sharing the file inserted the same idempotency key first: its run. */
  private racedOn(run: NewRun, error: unknown): CreateResult | undefined {
    return (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' ? this.byIdempotencyKey(run) : undefined;
  }

  private byIdempotencyKey(run: NewRun): CreateResult | undefined {
    if (run.idempotencyKey === null) return undefined;
    const existing = this.statement(`SELECT ${COLUMNS}, request_hash FROM runs WHERE creator_uid = ? AND idempotency_key = ?`).get(
      run.creator.uid ?? '',
      run.idempotencyKey,
    ) as RunRow | undefined;
    if (!existing) return undefined;
    return { kind: existing['request_hash'] === run.requestHash ? 'replayed' : 'conflict', run: toRecord(existing) };
  }

  /** Inserts many runs in one transaction; for seeding benchmarks and imports. */
  insertMany(runs: Iterable<NewRun>): void {
    this.db.transaction(() => {
      for (const run of runs) this.insertNow(run);
    })();
  }

  async get(id: string): Promise<RunRecord | undefined> {
    const row = this.byId.get(id) as unknown[] | undefined;
    return row ? readRunWithArtifacts(row) : undefined;
  }

  async claimsOf(ids: readonly string[]): Promise<Map<string, string | undefined>> {
    const claims = new Map<string, string | undefined>();
    // In lists of at most CLAIMS_PER_READ: as many prepared statements at most, whatever a worker's capacity.
    for (let i = 0; i < ids.length; i += CLAIMS_PER_READ) {
      const part = ids.slice(i, i + CLAIMS_PER_READ);
      const rows = this.statement(`SELECT id, started_at FROM runs WHERE ${sqliteDialect.inList('id', 1, part.length)}`).all(...part) as { id: string; started_at: string | null }[];
      for (const row of rows) claims.set(row.id, row.started_at ?? undefined);
    }
    return claims;
  }

  async getAttachments(id: string): Promise<StoredAttachment[]> {
    return this.attachments.get(id);
  }

  async conversationRuns(conversationId: string): Promise<RunRecord[]> {
    const rows = this.statement(`SELECT ${COLUMNS} FROM runs WHERE conversation_id = ? ORDER BY seq`).all(conversationId) as RunRow[];
    return rows.map((row) => toRecord(row));
  }

  async getBySession(sessionId: string): Promise<RunRecord | undefined> {
    const row = this.bySession.get(sessionId) as unknown[] | undefined;
    return row ? readRunWithArtifacts(row) : undefined;
  }

  async list(query: RunListQuery): Promise<RunListPage> {
    const { sql, params } = runListStatement(query, sqliteDialect);
    // Raw mode: each row an array read by position, not an object of column names.
    return runListPage(this.statement(sql, true).all(...params) as unknown[][], query, LIST_ARRAY_ROWS);
  }

  async count(query: RunListQuery): Promise<number> {
    const { sql, params } = runCountStatement(query, sqliteDialect);
    return Number((this.statement(sql).get(...params) as { n: number }).n);
  }

  async transition(id: string, change: RunTransition): Promise<RunRecord | undefined> {
    const from = change.from.map(() => '?').join(', ');
    const sets = ['state = ?', `updated_at = ${STAMP}`];
    const params: unknown[] = [change.to, change.at];
    if (change.startedAt !== undefined) sets.push('started_at = ?'), params.push(change.startedAt);
    if (change.statusMessage !== undefined) {
      sets.push('status_message = ?');
      params.push(change.statusMessage ? JSON.stringify(change.statusMessage) : null);
    }
    // all(), not get(): get() stops after the first row and the commit that follows is not
    // checked, so a write the disk refused (SQLITE_FULL) would be reported as done.
    // OR FAIL on the one-row writes of runs: sqlite-or-fail.ts says why.
    const claimed = change.claim ? ' AND started_at = ?' : '';
    const where = change.claim ? [id, ...change.from, change.claim] : [id, ...change.from];
    const statement = this.statement(`UPDATE OR FAIL runs SET ${sets.join(', ')} WHERE id = ? AND state IN (${from})${claimed} RETURNING ${COLUMNS}`);
    const [row] = await this.writes.run(() => statement.all(...params, ...where) as RunRow[]);
    if (row && change.to !== 'INPROGRESS') this.leases.releaseNow(undefined, [id]);
    return row ? toRecord(row) : undefined;
  }

  async setHarnessState(id: string, state: { requestUsage?: RequestUsage; harnessSessionId?: string }, updatedAt?: string): Promise<RunRecord | undefined> {
    const sets: string[] = [];
    const params: unknown[] = [];
    if (state.requestUsage !== undefined) sets.push('request_usage = ?'), params.push(JSON.stringify(state.requestUsage));
    if (state.harnessSessionId !== undefined) sets.push('harness_session_id = ?'), params.push(state.harnessSessionId);
    if (updatedAt !== undefined) sets.push(`updated_at = ${STAMP}`), params.push(updatedAt);
    if (sets.length === 0) return this.get(id);
    const update = this.statement(`UPDATE OR FAIL runs SET ${sets.join(', ')} WHERE id = ? RETURNING ${COLUMNS}`);
    const usage = state.requestUsage;
    if (!usage) {
      const [row] = update.all(...params, id) as RunRow[];
      return row ? toRecord(row) : undefined;
    }
    // The usage stored before, the new usage and the spend it adds, in one transaction.
    return this.db.transaction(() => {
      const before = this.statement('SELECT request_usage FROM runs WHERE id = ?').get(id) as { request_usage: string | null } | undefined;
      const [row] = update.all(...params, id) as RunRow[];
      if (!row || !before) return undefined;
      const run = toRecord(row);
      const delta = spendDelta(before.request_usage ? (JSON.parse(before.request_usage) as RequestUsage) : undefined, usage);
      if (delta.nanoUsd > 0 || delta.tokens > 0) {
        const at = updatedAt ?? new Date().toISOString();
        this.statement(ADD_SPEND).run(run.creator.uid ?? '', utcDay(at), delta.nanoUsd, delta.tokens, at);
      }
      return run;
    })();
  }

  async spendOf(creatorUid: string, day: string): Promise<PrincipalSpend> {
    return toPrincipalSpend(this.statement(SPEND_OF).get(creatorUid, day) as StandingRow | undefined);
  }

  async standingOf(creatorUid: string, wanted: StandingWanted): Promise<PrincipalStanding> {
    return this.readStanding(creatorUid, wanted);
  }

  async setTurnWeights(weights: Readonly<Record<string, number>>): Promise<void> {
    const insert = this.statement('INSERT INTO principal_turn_weights (creator_uid, weight) VALUES (?, ?)');
    const clear = this.statement('DELETE FROM principal_turn_weights');
    await this.writes.run(() => {
      clear.run();
      for (const [principal, weight] of weightRows(weights)) insert.run(principal, weight);
    });
  }

  async setBudget(id: string, budget: RunBudget): Promise<RunRecord | undefined> {
    // In place, so no other member of the configuration is written back from an older read.
    const statement = this.statement(`UPDATE OR FAIL runs SET agent_config = json_set(agent_config, '$.budget', json(?)) WHERE id = ? RETURNING ${COLUMNS}`);
    const [row] = await this.writes.run(() => statement.all(JSON.stringify(budget), id) as RunRow[]);
    return row ? toRecord(row) : undefined;
  }

  async setProcessGroup(id: string, group: ProcessGroupRecord): Promise<void> {
    this.statement(SET_PROCESS.sql).run(SET_PROCESS.values({ id, group }));
  }

  async processGroups(states: readonly string[]): Promise<(ProcessGroupRecord & { id: string })[]> {
    if (states.length === 0) return [];
    const rows = this.statement(processGroupsQuery(sqliteDialect.inList('state', 1, states.length))).all(...states) as Row[];
    return rows.map(READ_PROCESS);
  }

  async claimNext(owner: string, at: string, leaseMs: number, hosts: WorkerHosts = SERVER_HOSTS): Promise<RunRecord | undefined> {
    const [run] = this.leases.claimNow({ owner, leaseMs, limit: 1, dueParams: hosts, setParams: [at, at] });
    return run;
  }

  async activeCounts(): Promise<ActiveCount[]> {
    return (this.statement(ACTIVE_COUNTS_SQL).all() as Parameters<typeof toActiveCount>[0][]).map(toActiveCount);
  }

  async failAll(states: readonly string[], message: RunStatusMessage, at: string, except: readonly string[] = []): Promise<number> {
    if (states.length === 0) return 0;
    const info = this.statement(
      `UPDATE runs SET state = 'FAILED', updated_at = ${STAMP}, status_message = ? WHERE state IN (${states.map(() => '?').join(', ')}) AND id NOT IN (SELECT value FROM json_each(?))`,
    ).run(at, JSON.stringify(message), ...states, JSON.stringify(except));
    if (states.includes('INPROGRESS')) this.leases.releaseNow();
    return info.changes;
  }

  async inProgressOnWorkers(): Promise<string[]> {
    return (this.statement("SELECT id FROM runs WHERE state = 'INPROGRESS' AND worker_host <> ''").all() as { id: string }[]).map((row) => row.id);
  }

  /**
   * WAL checkpoints from a thread of their own (the server's storage): a commit on this
   * connection then no longer copies the WAL into the database every 1,000 pages. This
   * connection checkpoints again only if the WAL grows long (the thread failing or far
   * behind), and at the default length once the thread is gone.
   */
  checkpointInBackground(): void {
    if (this.checkpointer || !this.db.open || this.db.memory) return;
    this.db.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    this.checkpointer = new SqliteCheckpointer(this.db.name, () => {
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${DEFAULT_CHECKPOINT_PAGES}`);
    });
  }

  async close(): Promise<void> {
    // First: closing the last connection checkpoints the WAL and removes it.
    await this.checkpointer?.stop();
    // Writes asked for just before closing are made, not failed on a closed database.
    if (this.db.open) this.writes.flush();
    if (this.db.open) this.db.close();
  }
}

function created(run: NewRun, info: Database.RunResult): CreateResult {
  const { request: _request, idempotencyKey: _key, requestHash: _hash, attachments: _files, quota: _quota, ...record } = run;
  return { kind: 'created', run: { ...record, seq: Number(info.lastInsertRowid) } };
}
