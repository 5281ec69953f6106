import type { LeasedTable } from '../leased-table.js';
import type { NewRun, RunRecord } from './run-record.js';
import type { SortField } from './run-store.js';
import type { SqlDialect } from '../sql-dialect.js';
import { rowReader, selectList, type Row, type TableDescription } from '../table-description.js';

/**
 * The `runs` table: every column, what a create stores in it and what a read makes of it.
 * Both stores build their inserts and reads from it, and the migrations of both databases the table (table-schema.ts).
 */
export const RUNS_TABLE: TableDescription<NewRun, RunRecord> = {
  name: 'runs',
  columns: [
    // Insertion order: the tie-breaker that makes keyset pages stable.
    { name: 'seq', type: 'integer', read: 'seq', identity: 'increasing' },
    { name: 'id', type: 'text', write: (r) => r.id, read: 'id', notNull: true, unique: true },
    { name: 'title', type: 'text', write: (r) => r.title, read: 'title', notNull: true, byteOrder: true },
    { name: 'state', type: 'text', write: (r) => r.state, read: 'state', notNull: true },
    { name: 'prompt', type: 'text', write: (r) => r.prompt, read: 'prompt', notNull: true },
    { name: 'created_at', type: 'text', write: (r) => r.createdAt, read: 'createdAt', notNull: true, byteOrder: true },
    { name: 'updated_at', type: 'text', write: (r) => r.updatedAt, read: 'updatedAt', notNull: true, byteOrder: true },
    { name: 'started_at', type: 'text', write: (r) => r.startedAt, read: 'startedAt', byteOrder: true },
    { name: 'status_message', type: 'json', write: (r) => r.statusMessage, read: 'statusMessage' },
    { name: 'source', type: 'text', write: (r) => r.source, read: 'source', notNull: true },
    // The creator's uid on its own, for the idempotency key's scope and the creator filter.
    { name: 'creator_uid', type: 'text', write: (r) => r.creator.uid ?? '', notNull: true },
    { name: 'creator', type: 'json', write: (r) => r.creator, read: 'creator', notNull: true },
    { name: 'session_id', type: 'text', write: (r) => r.sessionId, read: 'sessionId', notNull: true },
    { name: 'agent_config', type: 'json', write: (r) => r.agentConfig, read: 'agentConfig', notNull: true },
    // The request body's extra members, kept as given.
    { name: 'request', type: 'json', write: (r) => r.request, notNull: true },
    // Parts of agent_config in columns of their own, for the filters and sorts.
    { name: 'config_name', type: 'text', write: (r) => r.agentConfig.name ?? '', notNull: true, default: "''", byteOrder: true },
    { name: 'model_id', type: 'text', write: (r) => r.agentConfig.model_id },
    { name: 'environment_id', type: 'text', write: (r) => r.agentConfig.environment_id },
    { name: 'skill_spec', type: 'text', write: (r) => r.agentConfig.skill_spec },
    { name: 'idempotency_key', type: 'text', write: (r) => r.idempotencyKey },
    { name: 'request_hash', type: 'text', write: (r) => r.requestHash },
    { name: 'parent_run_id', type: 'text', write: (r) => r.parentRunId, read: 'parentRunId', optional: true },
    { name: 'conversation_id', type: 'text', write: (r) => r.conversationId, read: 'conversationId', optional: true },
    { name: 'metadata', type: 'json', write: (r) => r.metadata, read: 'metadata', optional: true },
    { name: 'mode', type: 'text', write: (r) => r.mode, read: 'mode', optional: true },
    { name: 'interactive', type: 'boolean', write: (r) => r.interactive, read: 'interactive', optional: true },
    { name: 'agent_identity_uid', type: 'text', write: (r) => r.agentIdentityUid, read: 'agentIdentityUid', optional: true },
    { name: 'schedule_id', type: 'text', write: (r) => r.scheduleId, read: 'scheduleId', optional: true },
    // The resolved skill variant, for the skill's last run.
    { name: 'skill_id', type: 'text', write: (r) => r.origin?.skill_id },
    { name: 'origin', type: 'json', write: (r) => r.origin, read: 'origin', optional: true },
    // The lease of the server executing the run, where several share the database (SQLite's one server needs none).
    { name: 'owner', type: 'text', only: 'postgres' },
    { name: 'lease_expires_at', type: 'moment', only: 'postgres' },
    { name: 'request_usage', type: 'json', write: (r) => r.requestUsage, read: 'requestUsage', optional: true, added: 1 },
    { name: 'harness_session_id', type: 'text', write: (r) => r.harnessSessionId, read: 'harnessSessionId', optional: true, added: 2 },
    // Where the run executes: '' the server's own executor, else the self-hosted workers of that id
    // (added by a step of its own, after the steps already numbered past the `added` ones).
    { name: 'worker_host', type: 'text', write: (r) => r.workerHost ?? '', notNull: true, default: "''" },
    // Its place in the fair turns between principals, set by the database as it is queued (run-turns.ts).
    { name: 'turn', type: 'integer', write: (r) => r.turn ?? 0, notNull: true, default: '0' },
  ],
  // Every sort has an index ending in `seq`, so a keyset page is an index range scan whatever the number of runs.
  indexes: [
    { name: 'runs_idempotency', on: 'creator_uid, idempotency_key', unique: true, where: 'idempotency_key IS NOT NULL' },
    { name: 'runs_by_session', on: 'session_id', unique: true },
    { name: 'runs_by_updated', on: 'updated_at, seq' },
    { name: 'runs_by_created', on: 'created_at, seq' },
    { name: 'runs_by_title', on: 'title, seq' },
    { name: 'runs_by_agent', on: 'config_name, seq' },
    { name: 'runs_by_state', on: 'state, updated_at, seq' },
    { name: 'runs_by_creator', on: 'creator_uid, updated_at, seq' },
    { name: 'runs_by_parent', on: 'parent_run_id', where: 'parent_run_id IS NOT NULL' },
    { name: 'runs_by_conversation', on: 'conversation_id, seq', where: 'conversation_id IS NOT NULL' },
    { name: 'runs_by_schedule', on: 'schedule_id, updated_at, seq', where: 'schedule_id IS NOT NULL' },
    { name: 'runs_by_environment', on: 'environment_id, created_at', where: 'environment_id IS NOT NULL' },
    { name: 'runs_by_skill', on: 'skill_id, created_at', where: 'skill_id IS NOT NULL' },
    { name: 'runs_by_owner', on: 'owner', where: 'owner IS NOT NULL', only: 'postgres' },
    { name: 'runs_by_lease', on: 'lease_expires_at', where: "state = 'INPROGRESS'", only: 'postgres' },
    // A claim's `due`: the queued runs of the hosts a claimer serves, oldest first.
    { name: 'runs_by_worker_host', on: 'worker_host, updated_at, seq', where: "state = 'QUEUED'" },
    // The claim's order since fair turns: the queued runs by turn, then age (a claim filters its hosts on the way, as it did
    // walking runs_by_state; `state` first, so that SQLite's planner sees the claim's equality and walks it without a sort).
    { name: 'runs_by_turn', on: 'state, turn, updated_at, seq', where: "state = 'QUEUED'" },
    // A principal's last queued turn, which its next run follows (run-turns.ts).
    { name: 'runs_queued_by_creator', on: 'creator_uid, worker_host, turn', where: "state = 'QUEUED'" },
    // A principal's creates of the last minute, which its creates_per_minute quota counts at every create (principal-quotas.ts).
    { name: 'runs_by_creator_created', on: 'creator_uid, created_at, seq' },
  ],
};

/** The columns and index of runs that the migration step after the webhooks' adds (both databases). */
export const RUNS_WORKER_HOST = ['worker_host', 'runs_by_worker_host'] as const;

/** The index of a principal's creates by time, added by the step of the daily spend (both databases). */
export const RUNS_BY_CREATOR_CREATED = ['runs_by_creator_created'] as const;

/** The column and indexes of fair turns, added by the step after the workers' (both databases). */
export const RUNS_TURN = ['turn', 'runs_by_turn', 'runs_queued_by_creator'] as const;

/** What a read of a run selects (also what an UPDATE … RETURNING answers). */
export const RUN_COLUMNS = selectList(RUNS_TABLE);

/** A run read with RUN_COLUMNS, as a record. */
export const toRunRecord = rowReader(RUNS_TABLE);

/**
 * Runs as leased: a claim takes the QUEUED run whose turn comes first (run-turns.ts: turns
 * go round the principals), the one waiting longest (oldest `updated_at`, then `seq`) among
 * equal turns, and starts it, its `started_at` its new `updated_at` (bound: the claim's
 * time, twice), which names the claim; the lease lasts while it is INPROGRESS.
 */
export function leasedRuns(dialect: SqlDialect): LeasedTable {
  const stamp = dialect.nextStamp('?');
  return {
    name: 'runs',
    alias: 'runs',
    key: ['id'],
    keyType: 'text',
    owner: 'owner',
    expiresAt: 'lease_expires_at',
    clock: 'database',
    held: "runs.state = 'INPROGRESS'",
    // The claimer's hosts, two bound values ('' the server's own; a worker's id, or '' twice).
    due: "runs.state = 'QUEUED' AND runs.worker_host IN (?, ?)",
    order: 'runs.turn, runs.updated_at, runs.seq',
    claimSets: `state = 'INPROGRESS', updated_at = ${stamp}, started_at = ${stamp}`,
    columns: RUN_COLUMNS,
  };
}

/** Read with one run: whether it has artifacts (an index probe), so most reads of a run need no second query. */
export const HAS_ARTIFACTS = 'EXISTS (SELECT 1 FROM artifacts a WHERE a.run_id = runs.id) AS has_artifacts';

/** A run read with HAS_ARTIFACTS (PostgreSQL answers a boolean, SQLite 0 or 1). */
export function toRunRecordWithArtifacts(row: Row): RunRecord {
  const run = toRunRecord(row);
  run.hasArtifacts = Boolean(row['has_artifacts']);
  return run;
}

/** The column each sort of a list walks (with `seq` after it, in an index of both databases). */
export const SORT_COLUMN: Record<SortField, string> = {
  updated_at: 'updated_at',
  created_at: 'created_at',
  title: 'title',
  agent: 'config_name',
};

/** A list filter that matches one column exactly. */
interface ExactFilter {
  field: string;
  column: string;
  /** When the column's index may serve the filter: only where it is also in the page's sort order. */
  indexed?: (sortBy: SortField, filtersStates: boolean) => boolean;
}

/** The list filters that match one column exactly, by the RunListQuery field that carries them. */
export const RUN_EXACT_FILTERS = [
  { field: 'name', column: 'config_name', indexed: (sortBy) => sortBy === 'agent' },
  { field: 'modelId', column: 'model_id' },
  // runs_by_creator walks a principal's runs by update, runs_by_creator_created by create (its creates of the last minute, counted at each create).
  { field: 'creator', column: 'creator_uid', indexed: (sortBy, filtersStates) => (sortBy === 'updated_at' || sortBy === 'created_at') && !filtersStates },
  { field: 'source', column: 'source' },
  { field: 'environmentId', column: 'environment_id' },
  { field: 'skillSpec', column: 'skill_spec' },
  { field: 'scheduleId', column: 'schedule_id' },
  // The local server runs everything with its caller's credentials: the executor is the creator.
  { field: 'executor', column: 'creator_uid' },
  // A run's direct children (their count holds orchestration.max_children_per_run), by runs_by_parent.
  { field: 'parentRunId', column: 'parent_run_id', indexed: () => true },
] as const satisfies readonly ExactFilter[];

/** The RunListQuery fields of the exact filters, each the value its column must equal. */
export type RunExactFilters = { [F in (typeof RUN_EXACT_FILTERS)[number]['field']]?: string };

export type { Row as RunRow };
