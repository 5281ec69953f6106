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
  /** What files the entrypoint may send back (`FileLimits` as JSON); the agent does not get it. */
  fileLimits: 'AGENT_RUNS_JOB_FILE_LIMITS',
  /** A harness execution (`HarnessJob` as JSON), run instead of the command; the agent does not get it. */
  harness: 'AGENT_RUNS_JOB_HARNESS',
  /** The run's API token for its agent (from the run's own Secret), handed on as AGENT_RUNS_RUN_TOKEN. */
  apiToken: 'AGENT_RUNS_JOB_API_TOKEN',
  /** The run's workspace to prepare (`JobWorkspace` as JSON: its environment's repositories and setup commands); the agent does not get it. */
  workspace: 'AGENT_RUNS_JOB_WORKSPACE',
  /** Where the entrypoint keeps its own directory (the pod's `emptyDir` volume); else the system's temporary directory. */
  workRoot: 'AGENT_RUNS_JOB_WORK_ROOT',
  /**
   * The names (a JSON list) of the variables that hold the run's environment's secrets, whose
   * values the entrypoint masks in all it sends; names only, never values. The agent does not get it.
   */
  masked: 'AGENT_RUNS_JOB_MASKED',
  /**
   * Where each Secret of `kubernetes.env_from_secrets` is mounted, read-only, in a directory
   * named after it: its file names (the Secret's keys, so the variables `envFrom` made) are
   * more names whose values are masked. The agent does not get it.
   */
  maskedDir: 'AGENT_RUNS_JOB_MASKED_DIR',
  /**
   * How long the entrypoint keeps trying a worker that does not answer (its restart, a
   * rollout), in whole seconds from the last answer it had, before it gives up: 900 unless set
   * (by a dispatch command, in the environment it starts the entrypoint with).
   */
  retrySeconds: 'AGENT_RUNS_JOB_RETRY_SECONDS',
} as const;

/**
 * Bytes one variable from the run's Secret may hold (UTF-8, as the pod's environment holds
 * it). The Secret holds 1 MiB, but the pod still gets each value as a variable, and Linux
 * refuses a new program any one string of its environment over 128 KiB (MAX_ARG_STRLEN, the
 * name included): past that the container could not start at all. The rest of the 128 KiB is
 * left to the variable's name.
 */
export const MAX_POD_VARIABLE_BYTES = 127 * 1024;

/** What one execution's entrypoint may send back from its artifacts directory: the run's artifact limits, as the server gave them. */
export interface FileLimits {
  /** Largest single file, in bytes. */
  max_file_bytes: number;
  /** All the run's files together, over its executions, in bytes. */
  max_run_bytes: number;
  /** Files one execution may add. */
  max_count: number;
  /** Bytes of files the run's earlier executions keep already. */
  used_bytes: number;
}

/** The server's defaults, for a Job whose limits cannot be read (made by an older worker, or its annotation edited). */
export const DEFAULT_FILE_LIMITS: FileLimits = { max_file_bytes: 10 * 1024 * 1024, max_run_bytes: 50 * 1024 * 1024, max_count: 100, used_bytes: 0 };

/** The limits as JSON names them, or the defaults where that is not what it holds (no schema library: the entrypoint loads none). */
export function fileLimitsFrom(text: string | undefined): FileLimits {
  let json: unknown;
  try {
    json = JSON.parse(text ?? '');
  } catch {
    return DEFAULT_FILE_LIMITS;
  }
  const limits = { ...DEFAULT_FILE_LIMITS };
  if (typeof json !== 'object' || json === null) return limits;
  for (const key of Object.keys(limits) as (keyof FileLimits)[]) {
    const value = (json as Record<string, unknown>)[key];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) limits[key] = value;
  }
  return limits;
}
