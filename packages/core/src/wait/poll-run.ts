import { isTerminalState } from '../contract/run-state.js';
import type { RunItem } from '../contract/run-item.js';
import type { WithResponse } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { retryAfterMs } from '../internal/retry-timing.js';
import { isRetryableStatus } from '../internal/retry-policy.js';
import { sleep } from '../internal/sleep.js';
import { APIError } from '../errors/api-error.js';
import { APIConnectionError } from '../errors/connection-errors.js';
import { WaitTimeoutError } from '../errors/wait-timeout-error.js';
import {
  DEFAULT_MAX_POLL_INTERVAL_MS,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_WAIT_TIMEOUT_MS,
  type WaitOptions,
} from './wait-options.js';
import { hasRunChanged, runUpdate } from './run-changes.js';

type GetRun = (runId: string, options: RequestOptions) => Promise<WithResponse<RunItem>>;

const GROWTH = 1.5;

/** A failure worth waiting out: the server or the network is having a moment. */
function isTransient(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  return error instanceof APIError && isRetryableStatus(error.status, error.body);
}

/**
 * Polls a run until it reaches a terminal state and returns it. Polls start fast and
 * back off to a cap, reset on every change, and honour `Retry-After`. Transient
 * failures are waited out; anything else is thrown.
 */
export async function pollRun(getRun: GetRun, runId: string, options: WaitOptions = {}): Promise<RunItem> {
  const started = Date.now();
  const timeout = options.timeout ?? DEFAULT_WAIT_TIMEOUT_MS;
  const deadline = started + timeout;
  const initial = options.pollInterval ?? DEFAULT_POLL_INTERVAL_MS;
  const cap = options.maxPollInterval ?? Math.max(DEFAULT_MAX_POLL_INTERVAL_MS, initial);
  let interval = initial;
  let last: RunItem | undefined;

  for (;;) {
    let asked: number | undefined;
    try {
      const remaining = Math.max(1, deadline - Date.now());
      const reqTimeout = options.requestOptions?.timeout;
      const { data: run, response } = await getRun(runId, {
        ...options.requestOptions,
        timeout: reqTimeout === undefined ? remaining : Math.min(reqTimeout, remaining),
        signal: options.signal,
      });
      asked = retryAfterMs(response.headers);
      if (hasRunChanged(last, run)) {
        const previous = last;
        last = run;
        interval = initial;
        await options.onUpdate?.(runUpdate(run, previous, started));
      } else {
        interval = Math.min(cap, Math.round(interval * GROWTH));
      }
      if (isTerminalState(run.state)) return run;
    } catch (error) {
      if (!isTransient(error) || Date.now() >= deadline) {
        if (isTransient(error)) throw new WaitTimeoutError(runId, last, Date.now() - started);
        throw error;
      }
      if (error instanceof APIError) asked = retryAfterMs(error.headers);
      interval = Math.min(cap, Math.round(interval * GROWTH));
    }
    const now = Date.now();
    if (now >= deadline) throw new WaitTimeoutError(runId, last, now - started);
    const delay = asked !== undefined ? Math.max(asked, interval) : interval;
    await sleep(Math.min(delay, deadline - now), options.signal);
    if (Date.now() >= deadline) throw new WaitTimeoutError(runId, last, Date.now() - started);
  }
}

/**
 * @deprecated Use `client.runs.wait(runId, options)`, which follows the run's event stream
 * and polls only where the server has none. This polling-only function goes in the next release.
 */
export const waitForRun = pollRun;
