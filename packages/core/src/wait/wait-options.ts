import type { RunItem } from '../contract/run-item.js';
import type { RunOutputData } from '../contract/run-event-schemas.js';
import type { RequestOptions } from '../internal/options.js';

export const DEFAULT_WAIT_TIMEOUT_MS = 60 * 60_000;
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
export const DEFAULT_MAX_POLL_INTERVAL_MS = 10_000;

export interface RunUpdate {
  run: RunItem;
  /** The run as seen before this change; undefined on the first fetch. */
  previous: RunItem | undefined;
  /** True when the state differs from the previous one, and on the first fetch. */
  stateChanged: boolean;
  /** Milliseconds since the wait began. */
  elapsedMs: number;
}

export interface WaitOptions {
  /** Give up after this many ms with a WaitTimeoutError (the run goes on). Default one hour. */
  timeout?: number | undefined;
  /** Stops the wait with an APIUserAbortError. */
  signal?: AbortSignal | undefined;
  /** Called with the first run fetched and on every change of state, status message or updated_at. */
  onUpdate?: ((update: RunUpdate) => void | Promise<void>) | undefined;
  /** Called with each chunk of the agent's output, in order, where the server streams it. */
  onOutput?: ((output: RunOutputData) => void | Promise<void>) | undefined;
  /**
   * Only the execution this follow-up started (its `followup_id`, as `runs.followup` answers):
   * the states and output before the follow-up's event are history and are not reported.
   */
  afterFollowup?: string | undefined;
  /** Follow the run's event stream where the server has one (default); false always polls. */
  stream?: boolean | undefined;
  /** First delay between polls in ms; grows by half each quiet poll up to maxPollInterval. Default 1000. */
  pollInterval?: number | undefined;
  /** The longest delay between polls in ms. Default 10 000 (or pollInterval, if larger). */
  maxPollInterval?: number | undefined;
  /** Options for each poll request (timeout, retries, headers). */
  requestOptions?: Omit<RequestOptions, 'signal' | 'idempotencyKey'> | undefined;
}
