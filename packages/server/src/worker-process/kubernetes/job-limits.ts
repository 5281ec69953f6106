/**
 * The entrypoint's side of the Job protocol (`job-protocol.ts`) that needs no schema: the
 * variables it reads and the limits it keeps. Apart so that the entrypoint, whose start is
 * on the way of every run's start, loads no schema library before its agent runs.
 */

/** Lines in one output request, at most; the entrypoint sends more in the next. */
export const MAX_JOB_LINES = 1_000;
/** Text of one line, at most: a longer one is cut by the entrypoint. */
export const MAX_JOB_LINE_CHARS = 64 * 1024;
/** How often a quiet entrypoint says it is still there. */
export const JOB_HEARTBEAT_MS = 5_000;
/** A body larger than this is refused (413). */
export const MAX_JOB_BODY_BYTES = 4 * 1024 * 1024;

/** The variables the entrypoint reads (the agent gets none of the first two). */
export const JOB_ENV = {
  /** The worker's listener, as the pod reaches it. */
  url: 'AGENT_RUNS_JOB_URL',
  token: 'AGENT_RUNS_JOB_TOKEN',
  /** The agent command, run with `/bin/sh -c`. */
  command: 'AGENT_RUNS_JOB_COMMAND',
  /** The prompt of the run's first execution, or the follow-up's text. */
  prompt: 'AGENT_RUNS_PROMPT',
  /** Where the agent may write its usage as JSON (the API's request usage). */
  usageFile: 'AGENT_RUNS_USAGE_FILE',
} as const;
