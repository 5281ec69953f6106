import type { PrincipalStanding, StandingWanted } from './principal-standing.js';
import type { PrincipalSpend } from '../spend/principal-spend-table.js';
import type { Leases } from '../leases.js';
import type { KnownRunState, RequestUsage, RunBudget, RunStatusMessage } from '@agent-runs/core/contract';
import type { ProcessGroupRecord } from './process-group-record.js';
import type { ListCursor } from './list-cursor.js';
import type { NewRun, RunRecord, StoredAttachment } from './run-record.js';
import type { RunExactFilters } from './run-table.js';

export type SortField = 'updated_at' | 'created_at' | 'title' | 'agent';
export type SortOrder = 'asc' | 'desc';

/** A list request after validation: filters (those matching one column are RUN_EXACT_FILTERS), sort, and where the page starts. */
export interface RunListQuery extends RunExactFilters {
  limit: number;
  sortBy: SortField;
  sortOrder: SortOrder;
  after?: ListCursor;
  states?: KnownRunState[];
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  q?: string;
  /** Every pair must match. */
  metadata?: Record<string, string>;
  /** This run and every run below it by parent_run_id. */
  ancestorRunId?: string;
  /** Runs that produced an artifact of this type. */
  artifactType?: string;
  /** A filter this server keeps no data for (automations, factories, remote runs): the page is empty. */
  nothing?: boolean;
}

export interface RunListPage {
  runs: RunRecord[];
  /** The cursor after the last run when more follow. */
  next?: ListCursor;
}

/** A change of state; `from` guards against racing transitions. */
export interface RunTransition {
  from: readonly string[];
  to: KnownRunState;
  at: string;
  startedAt?: string;
  statusMessage?: RunStatusMessage | null;
  /**
   * Only under this claim: the `started_at` its `claimNext` set. An execution that ends or
   * fails to start then changes nothing once its claim was overtaken (cancelled, requeued
   * and claimed again, here or on another server).
   */
  claim?: string | null;
}

/**
 * A new run's first event (its `run` event as created), stored in the create's own
 * transaction: numbered 1 in the run's event log, with the run version it shows.
 */
export interface CreatedRunEvent {
  data: string;
  runVersion: string;
}

export type CreateResult = (
  | { kind: 'created'; run: RunRecord }
  | { kind: 'replayed'; run: RunRecord }
  | { kind: 'conflict'; run: RunRecord }
  /** Its parent had `childLimit` children already: nothing was stored. */
  | { kind: 'parent_full' }
  /** Its principal was at one of its `quota` limits already: nothing was stored. */
  | { kind: 'quota_exceeded' }
) & {
  /** With `quota`: where the principal stood before this create, read in its transaction (the counters of its limits only). */
  standing?: PrincipalStanding | undefined;
};

/**
 * Everything the server needs from storage. SQLite implements it today; another
 * database can by implementing these few methods (asynchronous, so a network database fits).
 */
export interface RunStore {
  /**
   * Inserts a run (and `event`, its first event, in the same transaction), or answers with
   * the run an earlier create under the same idempotency key made (no event stored then).
   * With `childLimit`, the parent's children are counted and the run inserted atomically; with
   * `quota`, the principal's standing is read and held to its limits the same way, before the key is looked up.
   */
  create(run: NewRun, event?: CreatedRunEvent): Promise<CreateResult>;
  get(id: string): Promise<RunRecord | undefined>;
  getBySession(sessionId: string): Promise<RunRecord | undefined>;
  /** The files given with the run's prompt, in the order given. */
  getAttachments(id: string): Promise<StoredAttachment[]>;
  /** The runs of a conversation, oldest first (the first one started it, and its creator owns it). */
  conversationRuns(conversationId: string): Promise<RunRecord[]>;
  list(query: RunListQuery): Promise<RunListPage>;
  /** How many runs `list` would find, counting up to `limit + 1` at most. */
  count(query: RunListQuery): Promise<number>;
  /** Applies the transition if the run is in one of `from`; returns the updated run or undefined. */
  transition(id: string, change: RunTransition): Promise<RunRecord | undefined>;
  /**
   * Keeps what a run's harness reported (usage so far, its session id), and `updatedAt` when
   * given; answers the run as it is now. New usage adds what it grew by since the stored usage
   * to the run's principal's spend of the UTC day of `updatedAt` (else now), in the same
   * transaction (principal-spend-table.ts says why the difference).
   */
  setHarnessState(id: string, state: { requestUsage?: RequestUsage; harnessSessionId?: string }, updatedAt?: string): Promise<RunRecord | undefined>;
  /** What a principal (a run's `creator_uid`) spent on a UTC day (`2026-11-29`), over all its runs. */
  spendOf(creatorUid: string, day: string): Promise<PrincipalSpend>;
  /**
   * Where a principal (a run's `creator_uid`) stands on the counters the database keeps, those
   * `wanted` only (the others read as 0), in one read: its runs QUEUED and INPROGRESS now, its
   * creates in the seconds after `createsSince` (a minute ago), its spend on `spendDay`.
   */
  standingOf(creatorUid: string, wanted: StandingWanted): Promise<PrincipalStanding>;
  /** Replaces the weights of fair turns (`fair_turns.weights`; a principal not named has weight 1), read by the turn a queued run takes. */
  setTurnWeights(weights: Readonly<Record<string, number>>): Promise<void>;
  /** Replaces a run's `agent_config.budget` (a follow-up raised it); answers the run as it is now. */
  setBudget(id: string, budget: RunBudget): Promise<RunRecord | undefined>;
  /** Records the process group doing a run's work. */
  setProcessGroup(id: string, group: ProcessGroupRecord): Promise<void>;
  /** The recorded process groups of the runs in one of `states`. */
  processGroups(states: readonly string[]): Promise<(ProcessGroupRecord & { id: string })[]>;
  /**
   * Moves the QUEUED run waiting longest (oldest `updated_at`, then `seq`) to INPROGRESS
   * for `owner`, leased for `leaseMs` where the store keeps leases; undefined when none
   * waits. However many servers claim at once, each run goes to exactly one of them. Its
   * `startedAt` is its new `updatedAt`, later than every earlier claim's: it names the claim.
   */
  /** The `started_at` of each of these runs that exists (its claim, when INPROGRESS): what a worker's poll holds its claims to, in one read. */
  claimsOf(ids: readonly string[]): Promise<Map<string, string | undefined>>;
  /** The leases on INPROGRESS runs: a worker's polls renew its runs' through them, its reports are fenced by them. */
  readonly leases: Leases<RunRecord>;
  claimNext(owner: string, at: string, leaseMs: number, hosts?: WorkerHosts): Promise<RunRecord | undefined>;
  /** How many runs are QUEUED and INPROGRESS, per worker id ('' for the server's own): what `/metrics` shows. */
  activeCounts(): Promise<ActiveCount[]>;
  /** Marks every run in one of `states` as FAILED with `message`; returns how many. */
  failAll(states: readonly string[], message: RunStatusMessage, at: string, except?: readonly string[]): Promise<number>;
  /** The ids of the INPROGRESS runs routed to a worker id: what a restarted server alone on its database may give back to their workers. */
  inProgressOnWorkers(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * The `worker_host` values a claim may take runs of, two (a value given twice: one): the
 * server's own queue claims '' only; a worker its id, and '' too when it takes unrouted runs.
 */
export type WorkerHosts = readonly [string, string];

/** What the server's own executor claims: the runs that name no worker. */
export const SERVER_HOSTS: WorkerHosts = ['', ''];

/** Runs of one state routed to one worker id ('' for the server's own). */
export interface ActiveCount {
  workerHost: string;
  state: 'QUEUED' | 'INPROGRESS';
  count: number;
}

/** The query behind `activeCounts`, the same on both databases (the queue's index serves its QUEUED half). */
export const ACTIVE_COUNTS_SQL = "SELECT worker_host, state, count(*) AS n FROM runs WHERE state IN ('QUEUED', 'INPROGRESS') GROUP BY worker_host, state";

/** A row of ACTIVE_COUNTS_SQL (PostgreSQL answers counts as strings). */
export const toActiveCount = (row: { worker_host: string; state: string; n: number | string }): ActiveCount => ({
  workerHost: row.worker_host,
  state: row.state as ActiveCount['state'],
  count: Number(row.n),
});
