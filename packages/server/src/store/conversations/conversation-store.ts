/** A message of a run's conversation beside its prompt: a follow-up, or an execution's result. */
export interface RunMessage {
  id: string;
  runId: string;
  kind: 'followup' | 'result';
  text: string;
  /** A follow-up's mode (`normal`, `plan`, `orchestrate`). */
  mode: string | null;
  /** A result's run state. */
  state: string | null;
  /** The execution (1, 2, ...) that answered a follow-up or gave a result; null for a follow-up not taken yet. */
  execution: number | null;
  createdAt: string;
}

/** Follow-ups and results, in the order they happened. */
export interface ConversationStore {
  /** Adds a follow-up; with an idempotency key already used for the run, answers the earlier one (`replayed`). */
  addFollowup(
    runId: string,
    followup: { text: string; mode: string | null; at: string; idempotencyKey?: string | undefined },
  ): Promise<{ message: RunMessage; replayed: boolean }>;
  addResult(runId: string, result: { execution: number; state: string; text: string; at: string }): Promise<RunMessage>;
  list(runId: string): Promise<RunMessage[]>;
  /** Follow-ups no execution has taken yet, oldest first. */
  pendingFollowups(runId: string): Promise<RunMessage[]>;
  /** Marks follow-ups as answered by `execution`. */
  assign(runId: string, ids: readonly string[], execution: number): Promise<void>;
  /** Follow-ups given to `execution` wait again for the next one (it never started). */
  release(runId: string, execution: number): Promise<void>;
  /**
   * Begins the run's next execution, in one transaction, while the run is INPROGRESS under
   * the claim `claim` (the claim's `startedAt`): numbers it after every execution started,
   * gives it the follow-ups waiting, and keeps its start (`server`'s; apart from the
   * conversation `list` reads, and what `unended` tells). Undefined, changing
   * nothing, when the claim was overtaken (cancelled, requeued, claimed again). On a shared
   * database the run's row is locked meanwhile, so two servers never begin one run's execution at once.
   */
  beginExecution(runId: string, start: { claim: string | null; server: string; at: string }): Promise<{ execution: number; followups: RunMessage[] } | undefined>;
  /** The run's last execution started, when it has no result yet (still running, being stopped, or lost with its server). */
  unended(runId: string): Promise<{ execution: number; server: string } | undefined>;
  /** The run's last execution started, ended or not, and who started it: where its working directory is. */
  lastStart(runId: string): Promise<{ execution: number; server: string } | undefined>;
}

/** Both stores' reads of the last execution started and not ended (`?` parameters: the run id twice). */
export const UNENDED_SQL = `SELECT s.execution, s.text AS server
  FROM (SELECT execution, text FROM run_messages WHERE run_id = ? AND kind = 'start' ORDER BY seq DESC LIMIT 1) s
  WHERE NOT EXISTS (SELECT 1 FROM run_messages r WHERE r.run_id = ? AND r.kind = 'result' AND r.execution = s.execution)`;
/** Both stores' read of the last execution started (`?` parameter: the run id). */
export const LAST_START_SQL = "SELECT execution, text AS server FROM run_messages WHERE run_id = ? AND kind = 'start' ORDER BY seq DESC LIMIT 1";
/** Both stores' read of a run's claim, taken by `beginExecution` (PostgreSQL adds FOR UPDATE). */
export const CLAIM_SQL = 'SELECT state, started_at FROM runs WHERE id = ?';
/** Both stores' follow-ups no execution has taken yet, oldest first. */
export const PENDING_SQL_WHERE = "run_id = ? AND kind = 'followup' AND execution IS NULL";
/** Both stores' release of an execution's follow-ups (`?` parameters: the run id, the execution). */
export const RELEASE_SQL = "UPDATE run_messages SET execution = NULL WHERE run_id = ? AND kind = 'followup' AND execution = ?";
/** The last execution's number, from its start or (for runs from before starts were kept) its result. */
export const EXECUTION_COUNT_SQL = "SELECT COALESCE(MAX(execution), 0) AS n FROM run_messages WHERE run_id = ? AND kind IN ('start', 'result')";
/** The conversation as read: starts are bookkeeping, not part of it. */
export const LIST_SQL_WHERE = "run_id = ? AND kind <> 'start'";
