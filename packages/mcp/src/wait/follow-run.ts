import { formatElapsed, WaitTimeoutError, type AgentRunsClient, type RunItem } from '@agent-runs/core';

export interface FollowRunOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** Longest silence between two onProgress calls, in ms. */
  heartbeatMs: number;
  pollIntervalMs: number;
  /** A line such as `INPROGRESS · 3m12s`: on the first answer, every state change, and each heartbeat. */
  onProgress?: (message: string, run: RunItem | undefined) => void | Promise<void>;
  /** Called with the first run fetched and on every change of state. */
  onStateChange?: (run: RunItem) => void | Promise<void>;
}

export interface FollowRunOutcome {
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

export function progressMessage(runId: string, run: RunItem | undefined, waitedMs: number): string {
  const elapsed = formatElapsed(runAgeMs(run, waitedMs));
  return run ? `${run.state} · ${elapsed}` : `waiting for run ${runId} · ${elapsed}`;
}

/**
 * Waits for a run with core's `runs.wait`, reporting progress on every state change and
 * at least every `heartbeatMs` in between, so that a host never sees a silent call.
 * A timeout is an outcome, not an error; an abort rejects with APIUserAbortError.
 */
export async function followRun(client: AgentRunsClient, runId: string, options: FollowRunOptions): Promise<FollowRunOutcome> {
  const started = Date.now();
  let last: RunItem | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const report = async (): Promise<void> => {
    clearTimeout(heartbeat);
    heartbeat = setTimeout(() => void report(), options.heartbeatMs);
    try {
      await options.onProgress?.(progressMessage(runId, last, Date.now() - started), last);
    } catch {
      // A notification that cannot be delivered must not end the wait.
    }
  };

  heartbeat = setTimeout(() => void report(), options.heartbeatMs);
  try {
    const run = await client.runs.wait(runId, {
      timeout: options.timeoutMs,
      signal: options.signal,
      pollInterval: options.pollIntervalMs,
      onUpdate: async ({ run: update, stateChanged }) => {
        last = update;
        if (stateChanged) {
          await report();
          await options.onStateChange?.(update);
        }
      },
    });
    return { run, finished: true, timedOut: false, waitedMs: Date.now() - started };
  } catch (error) {
    if (error instanceof WaitTimeoutError) {
      return { run: error.lastRun ?? last, finished: false, timedOut: true, waitedMs: error.elapsedMs };
    }
    throw error;
  } finally {
    clearTimeout(heartbeat);
  }
}
