import { isTerminalState } from '../contract/run-state.js';
import type { RunItem } from '../contract/run-item.js';
import { APIUserAbortError } from '../errors/connection-errors.js';
import { WaitTimeoutError } from '../errors/wait-timeout-error.js';
import { followRunEvents, type RunEventDeps } from './follow-run-events.js';
import { pollRun } from './poll-run.js';
import { hasRunChanged, runUpdate } from './run-changes.js';
import { DEFAULT_WAIT_TIMEOUT_MS, type WaitOptions } from './wait-options.js';

const TIMED_OUT = Symbol('wait timed out');

const isFollowup = (data: unknown, id: string | undefined): boolean =>
  typeof data === 'object' && data !== null && (data as { followup_id?: unknown }).followup_id === id;

/**
 * Waits for a run to end by following its event stream, and by polling where the server
 * has none: `onUpdate` gets the first run seen and every change, `onOutput` the agent's
 * output; the timeout throws WaitTimeoutError with the last run seen, as polling does.
 */
export async function waitOnStream(deps: RunEventDeps, runId: string, options: WaitOptions = {}): Promise<RunItem> {
  if (options.stream === false || deps.support.streams === false) return pollRun(deps.getRun, runId, options);
  const started = Date.now();
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) throw new APIUserAbortError(undefined, { cause: options.signal.reason });
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(TIMED_OUT), options.timeout ?? DEFAULT_WAIT_TIMEOUT_MS);
  let last: RunItem | undefined;
  // A stream replays the run from its start: what came before the follow-up is an earlier execution.
  let replayingHistory = options.afterFollowup !== undefined;
  let historyRun: RunItem | undefined;
  try {
    for await (const event of followRunEvents(deps, runId, {
      signal: controller.signal,
      // A wait outlasts any number of drops: its timeout is the bound.
      maxReconnects: Number.MAX_SAFE_INTEGER,
      pollInterval: options.pollInterval,
      maxPollInterval: options.maxPollInterval,
      requestOptions: options.requestOptions,
    })) {
      if (replayingHistory) {
        if (event.type === 'run') historyRun = event.data;
        if (event.type === 'followup' && isFollowup(event.data, options.afterFollowup)) replayingHistory = false;
        // A gap in the log may have taken the follow-up's event with it (the run sent with the gap
        // is current), and a stream ends at a terminal run: either ends the history.
        const ends = event.type === 'skipped' || (event.type === 'run' && isTerminalState(event.data.state));
        if (!ends) continue;
        replayingHistory = false;
      }
      if (event.type === 'output') {
        await options.onOutput?.(event.data);
        continue;
      }
      const run = event.type === 'run' ? event.data : event.type === 'skipped' ? historyRun : undefined;
      if (!run) continue;
      if (hasRunChanged(last, run)) {
        const previous = last;
        last = run;
        await options.onUpdate?.(runUpdate(run, previous, started));
      }
      if (isTerminalState(run.state)) return run;
    }
    // The events end only after a terminal run; a wait cannot get here.
    throw new WaitTimeoutError(runId, last, Date.now() - started);
  } catch (error) {
    if (controller.signal.reason === TIMED_OUT && !options.signal?.aborted) throw new WaitTimeoutError(runId, last, Date.now() - started);
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
