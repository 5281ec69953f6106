import type pg from 'pg';
import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { ProcessGroupRecord } from './process-group-record.js';
import type { ListCursor } from './list-cursor.js';
import { RUN_COLUMNS, SORT_COLUMN, toRunRecord, type RunRow } from './run-row.js';
import { inTransaction } from './postgres-transaction.js';
import type { NewRun, RunRecord, StoredAttachment } from './run-record.js';
import type { CreateResult, RunListPage, RunListQuery, RunStore, RunTransition } from './run-store.js';

/** Read with one run: whether it has artifacts (an index probe), so most reads of a run need no second query. */
const HAS_ARTIFACTS = 'EXISTS (SELECT 1 FROM artifacts a WHERE a.run_id = runs.id) AS has_artifacts';

const INSERT_COLUMNS = [
  'id', 'title', 'state', 'prompt', 'created_at', 'updated_at', 'started_at', 'status_message', 'source', 'creator_uid',
  'creator', 'session_id', 'agent_config', 'request', 'config_name', 'model_id', 'environment_id', 'skill_spec', 'idempotency_key',
  'request_hash', 'parent_run_id', 'conversation_id', 'metadata', 'mode', 'interactive', 'agent_identity_uid', 'schedule_id',
  'skill_id', 'origin',
];

function toValues(run: NewRun): unknown[] {
  return [
    run.id,
    run.title,
    run.state,
    run.prompt,
    run.createdAt,
    run.updatedAt,
    run.startedAt,
    run.statusMessage ? JSON.stringify(run.statusMessage) : null,
    run.source,
    run.creator.uid ?? '',
    JSON.stringify(run.creator),
    run.sessionId,
    JSON.stringify(run.agentConfig),
    JSON.stringify(run.request),
    run.agentConfig.name ?? '',
    run.agentConfig.model_id ?? null,
    run.agentConfig.environment_id ?? null,
    run.agentConfig.skill_spec ?? null,
    run.idempotencyKey,
    run.requestHash,
    run.parentRunId ?? null,
    run.conversationId ?? null,
    run.metadata ? JSON.stringify(run.metadata) : null,
    run.mode ?? null,
    run.interactive ?? null,
    run.agentIdentityUid ?? null,
    run.scheduleId ?? null,
    run.origin?.skill_id ?? null,
    run.origin ? JSON.stringify(run.origin) : null,
  ];
}

const INSERT_RUN = `INSERT INTO runs (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT (creator_uid, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING seq`;

function created(run: NewRun, seq: string): CreateResult {
  const { request: _request, idempotencyKey: _key, requestHash: _hash, attachments: _files, ...record } = run;
  return { kind: 'created', run: { ...record, seq: Number(seq) } };
}

// A transition out of INPROGRESS ends the lease: the run no longer belongs to a server.
const LET_GO = `owner = CASE WHEN state = 'INPROGRESS' AND $1::text <> 'INPROGRESS' THEN NULL ELSE owner END,
  lease_expires_at = CASE WHEN state = 'INPROGRESS' AND $1::text <> 'INPROGRESS' THEN NULL ELSE lease_expires_at END`;

/** Runs in PostgreSQL: the same rows, filters and pages as the SQLite store, shared by any number of servers. */
export class PostgresRunStore implements RunStore {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * The insert, its metadata rows and attachments in one transaction; a key used before
   * answers the earlier run. A run without metadata or attachments (most) is the insert
   * alone, one statement and no transaction around it.
   */
  async create(run: NewRun): Promise<CreateResult> {
    if (!Object.keys(run.metadata ?? {}).length && !run.attachments?.length) {
      const inserted = await this.pool.query<{ seq: string }>({ name: 'agent-runs-insert-run', text: INSERT_RUN, values: toValues(run) });
      const row = inserted.rows[0];
      // A new statement sees the run a racing create committed under the key.
      return row ? created(run, row.seq) : this.byIdempotencyKey(this.pool, run);
    }
    return inTransaction(this.pool, async (client) => {
      // ON CONFLICT waits for a create racing under the same key to commit, then inserts nothing.
      const inserted = await client.query<{ seq: string }>(INSERT_RUN, toValues(run));
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
    return { kind: existing.request_hash === run.requestHash ? 'replayed' : 'conflict', run: toRunRecord(existing) };
  }

  /** The first row `sql` answers as a run; `name` prepares the statement once per connection (for the hottest reads). */
  private async one(sql: string, params: unknown[], name?: string): Promise<RunRecord | undefined> {
    const { rows } = await this.pool.query<RunRow>({ text: sql, values: params, ...(name ? { name } : {}) });
    return rows[0] ? toRunRecord(rows[0]) : undefined;
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

  async latestInConversation(conversationId: string): Promise<RunRecord | undefined> {
    return this.one(`SELECT ${RUN_COLUMNS} FROM runs WHERE conversation_id = $1 ORDER BY seq DESC LIMIT 1`, [conversationId]);
  }

  async list(query: RunListQuery): Promise<RunListPage> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const column = SORT_COLUMN[query.sortBy];
    if (query.states?.length) where.push(`state = ANY(${param(query.states)}::text[])`);
    const exact: [string, string | undefined][] = [
      ['config_name', query.name],
      ['model_id', query.modelId],
      ['creator_uid', query.creator],
      ['source', query.source],
      ['environment_id', query.environmentId],
      ['skill_spec', query.skillSpec],
      ['schedule_id', query.scheduleId],
      // The local server runs everything with its caller's credentials: the executor is the creator.
      ['creator_uid', query.executor],
    ];
    for (const [name, value] of exact) if (value !== undefined) where.push(`${name} = ${param(value)}`);
    if (query.nothing) where.push('false');
    for (const [key, value] of Object.entries(query.metadata ?? {})) {
      where.push(`id IN (SELECT run_id FROM run_metadata WHERE key = ${param(key)} AND value = ${param(value)})`);
    }
    if (query.artifactType !== undefined) {
      where.push(`id IN (SELECT run_id FROM artifacts WHERE artifact_type = ${param(query.artifactType)})`);
    }
    if (query.ancestorRunId !== undefined) {
      where.push(`id IN (WITH RECURSIVE tree(id) AS (SELECT ${param(query.ancestorRunId)}::text UNION
        SELECT r.id FROM runs r JOIN tree ON r.parent_run_id = tree.id) SELECT id FROM tree)`);
    }
    if (query.createdAfter) where.push(`created_at > ${param(query.createdAfter)}`);
    if (query.createdBefore) where.push(`created_at < ${param(query.createdBefore)}`);
    if (query.updatedAfter) where.push(`updated_at > ${param(query.updatedAfter)}`);
    if (query.q) {
      // As SQLite's LIKE: case-insensitive for ASCII letters only, which ILIKE is under the "C" collation.
      const like = param(`%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(
        `(title COLLATE "C" ILIKE ${like} ESCAPE '\\' OR prompt COLLATE "C" ILIKE ${like} ESCAPE '\\' OR skill_spec COLLATE "C" ILIKE ${like} ESCAPE '\\')`,
      );
    }
    const desc = query.sortOrder === 'desc';
    if (query.after) where.push(`(${column}, seq) ${desc ? '<' : '>'} (${param(query.after.value)}, ${param(query.after.seq)}::bigint)`);
    const direction = desc ? 'DESC' : 'ASC';
    const sql = `SELECT ${RUN_COLUMNS}, config_name FROM runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${column} ${direction}, seq ${direction} LIMIT ${param(query.limit + 1)}`;
    const { rows } = await this.pool.query<RunRow>(sql, params);
    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    const last = page[page.length - 1];
    const next: ListCursor | undefined =
      more && last
        ? {
            sortBy: query.sortBy,
            sortOrder: query.sortOrder,
            value: String(last[column as keyof RunRow]),
            seq: Number(last.seq),
          }
        : undefined;
    return { runs: page.map(toRunRecord), ...(next ? { next } : {}) };
  }

  /** One UPDATE guarded by the state, so of two racing transitions only one applies. */
  async transition(id: string, change: RunTransition): Promise<RunRecord | undefined> {
    const params: unknown[] = [change.to, change.at];
    const sets = ['state = $1', 'updated_at = $2', LET_GO];
    if (change.startedAt !== undefined) params.push(change.startedAt), sets.push(`started_at = $${params.length}`);
    if (change.statusMessage !== undefined) {
      params.push(change.statusMessage ? JSON.stringify(change.statusMessage) : null);
      sets.push(`status_message = $${params.length}`);
    }
    params.push(id, [...change.from]);
    return this.one(
      `UPDATE runs SET ${sets.join(', ')} WHERE id = $${params.length - 1} AND state = ANY($${params.length}::text[]) RETURNING ${RUN_COLUMNS}`,
      params,
    );
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

  /**
   * SKIP LOCKED: a run another server is claiming right now is passed over, not waited for,
   * so each claimer takes a different run and none blocks on another.
   */
  async claimNext(owner: string, at: string, leaseMs: number): Promise<RunRecord | undefined> {
    return this.one(
      `UPDATE runs SET state = 'INPROGRESS', updated_at = $1, started_at = $1, owner = $2,
         lease_expires_at = now() + $3::double precision * interval '1 millisecond'
       WHERE seq = (SELECT seq FROM runs WHERE state = 'QUEUED' ORDER BY updated_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${RUN_COLUMNS}`,
      [at, owner, leaseMs],
    );
  }

  async failAll(states: readonly string[], message: RunStatusMessage, at: string): Promise<number> {
    if (states.length === 0) return 0;
    const result = await this.pool.query(
      `UPDATE runs SET state = 'FAILED', updated_at = $1, status_message = $2, owner = NULL, lease_expires_at = NULL
       WHERE state = ANY($3::text[])`,
      [at, JSON.stringify(message), [...states]],
    );
    return result.rowCount ?? 0;
  }

  /** The pool belongs to the storage; its close() ends it. */
  async close(): Promise<void> {}
}
