import type { RunItem } from '../contract/run-item.js';
import { APIUserAbortError } from '../errors/connection-errors.js';
import { WaitTimeoutError } from '../errors/wait-timeout-error.js';
import { hasStatusChanged } from './run-changes.js';
import type { RunUpdate, WaitOptions } from './wait-options.js';

/** A change of a followed run, with what every adapter decides the same way already decided. */
export interface RunChange extends RunUpdate {
  /** The first sight of the run, a new state or a new status message: worth a line to a person. */
  statusChanged: boolean;
  /** The session link the first time the run has one (so that it is shown once), else undefined. */
  newSessionLink: string | undefined;
}

export interface FollowOptions extends Omit<WaitOptions, 'onUpdate'> {
  /** Called with the first run seen and on every change of state, status message or updated_at. */
  onChange?: ((change: RunChange) => void | Promise<void>) | undefined;
}

/** How following a run ended: a timeout or a stop is an outcome, not an error; the run goes on. */
export type FollowOutcome =
  | { kind: 'finished'; run: RunItem; elapsedMs: number }
  | { kind: 'timed-out'; run: RunItem | undefined; elapsedMs: number; error: WaitTimeoutError }
  | { kind: 'stopped'; run: RunItem | undefined; elapsedMs: number; error: APIUserAbortError };

type Wait = (runId: string, options: WaitOptions) => Promise<RunItem>;

/**
 * Follows a run to its end with `wait` (`client.runs.wait`): each change comes with the one
 * "status changed" rule and the session link once, output chunks pass through, and the end
 * is an outcome (finished, timed out, or stopped by `signal`). Other failures are thrown.
 */
export async function followRun(wait: Wait, runId: string, options: FollowOptions = {}): Promise<FollowOutcome> {
  const { onChange, ...waitOptions } = options;
  const started = Date.now();
  let last: RunItem | undefined;
  let linkShown = false;
  try {
    const run = await wait(runId, {
      ...waitOptions,
      onUpdate: async (update) => {
        last = update.run;
        const link = update.run.session_link;
        const newSessionLink = !linkShown && link ? link : undefined;
        if (newSessionLink) linkShown = true;
        await onChange?.({ ...update, statusChanged: hasStatusChanged(update), newSessionLink });
      },
    });
    return { kind: 'finished', run, elapsedMs: Date.now() - started };
  } catch (error) {
    if (error instanceof WaitTimeoutError) return { kind: 'timed-out', run: error.lastRun ?? last, elapsedMs: error.elapsedMs, error };
    if (error instanceof APIUserAbortError && options.signal?.aborted) {
      return { kind: 'stopped', run: last, elapsedMs: Date.now() - started, error };
    }
    throw error;
  }
}
