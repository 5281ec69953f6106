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
  /** How many executions have ended (the next one is this plus one). */
  executionCount(runId: string): Promise<number>;
}
