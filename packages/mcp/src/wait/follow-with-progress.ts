import { formatElapsed, visibleText, type AgentRunsClient, type RunItem } from '@agent-runs/core';

/** A progress message carries at most this much of the newest output line. */
const MAX_LINE_CHARS = 160;
/** Output alone sends at most one progress notification per this many ms. */
const OUTPUT_PROGRESS_MS = 1_000;

export interface FollowWithProgressOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** Longest silence between two onProgress calls, in ms. */
  heartbeatMs: number;
  pollIntervalMs: number;
  /** Report only the execution this follow-up started (its id), not the run's earlier ones again. */
  afterFollowup?: string | undefined;
  /**
   * A line such as `INPROGRESS · 3m12s · Running the tests`: on the first answer, every
   * state change, new agent output (at most once a second) and each heartbeat.
   */
  onProgress?: (message: string, run: RunItem | undefined) => void | Promise<void>;
  /** Called with the first run fetched and on every change of state. */
  onStateChange?: (run: RunItem) => void | Promise<void>;
}

export interface FollowWithProgressOutcome {
  /** The terminal run, or on timeout the last run seen (undefined if no poll ever answered). */
  run: RunItem | undefined;
  finished: boolean;
  timedOut: boolean;
  waitedMs: number;
}

/** How long the run has existed by the server's clock, or failing that how long we have waited. */
function runAgeMs(run: RunItem | undefined, waitedMs: number): number {
  const created = run ? Date.parse(run.created_at) : Number.NaN;
  const age = Date.now() - created;
  return Number.isFinite(age) && age >= 0 ? age : waitedMs;
}

export function progressMessage(runId: string, run: RunItem | undefined, waitedMs: number, newestLine = ''): string {
  const elapsed = formatElapsed(runAgeMs(run, waitedMs));
  const head = run ? `${run.state} · ${elapsed}` : `waiting for run ${runId} · ${elapsed}`;
  return newestLine ? `${head} · ${newestLine}` : head;
}

/** The last non-blank line of a chunk of output, escaped and shortened for a progress message. */
function lastLine(text: string): string {
  const line = text.split('\n').map((l) => l.trim()).filter(Boolean).at(-1) ?? '';
  const shown = visibleText(line);
  return shown.length > MAX_LINE_CHARS ? `${shown.slice(0, MAX_LINE_CHARS - 1)}…` : shown;
}

/**
 * Follows a run with core's `runs.follow`, reporting progress on every state change and
 * at least every `heartbeatMs` in between, so that a host never sees a silent call.
 * A timeout is an outcome, not an error; an abort rejects with APIUserAbortError.
 */
export async function followWithProgress(
  client: AgentRunsClient,
  runId: string,
  options: FollowWithProgressOptions,
): Promise<FollowWithProgressOutcome> {
  const started = Date.now();
  let last: RunItem | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let newestLine = '';
  /** When a report last carried an output line: the once-a-second bound is on those alone. */
  let lastLineReport = 0;
  let outputReport: NodeJS.Timeout | undefined;

  const report = async (): Promise<void> => {
    clearTimeout(heartbeat);
    clearTimeout(outputReport);
    outputReport = undefined;
    if (newestLine) lastLineReport = Date.now();
    heartbeat = setTimeout(() => void report(), options.heartbeatMs);
    try {
      await options.onProgress?.(progressMessage(runId, last, Date.now() - started, newestLine), last);
    } catch {
      // A notification that cannot be delivered must not end the wait.
    }
  };

  heartbeat = setTimeout(() => void report(), options.heartbeatMs);
  try {
    const outcome = await client.runs.follow(runId, {
      timeout: options.timeoutMs,
      signal: options.signal,
      pollInterval: options.pollIntervalMs,
      afterFollowup: options.afterFollowup,
      // New output is worth a progress notification, but no more than one a second.
      onOutput: ({ text }) => {
        const line = lastLine(text);
        if (!line) return;
        newestLine = line;
        const due = lastLineReport + OUTPUT_PROGRESS_MS - Date.now();
        if (due <= 0) void report();
        else outputReport ??= setTimeout(() => void report(), due);
      },
      onChange: async ({ run: update, stateChanged }) => {
        last = update;
        if (stateChanged) {
          await report();
          await options.onStateChange?.(update);
        }
      },
    });
    if (outcome.kind === 'stopped') throw outcome.error;
    return { run: outcome.run, finished: outcome.kind === 'finished', timedOut: outcome.kind === 'timed-out', waitedMs: outcome.elapsedMs };
  } finally {
    clearTimeout(heartbeat);
    clearTimeout(outputReport);
  }
}
