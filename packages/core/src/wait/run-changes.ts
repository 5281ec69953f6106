import type { RunItem } from '../contract/run-item.js';
import type { RunUpdate } from './wait-options.js';

/** Whether `run` differs from what was seen before in state, status message or updated_at. */
export function hasRunChanged(previous: RunItem | undefined, run: RunItem): boolean {
  return (
    !previous ||
    previous.state !== run.state ||
    previous.updated_at !== run.updated_at ||
    previous.status_message?.message !== run.status_message?.message
  );
}

/**
 * Whether an update is worth a line to a person: the first sight of the run, a new state,
 * or a new status message (a change of `updated_at` alone is not).
 */
export function hasStatusChanged({ run, previous, stateChanged }: RunUpdate): boolean {
  return stateChanged || previous === undefined || previous.status_message?.message !== run.status_message?.message;
}

/** What `onUpdate` hears of a change, the same whether it came from a poll or the stream. */
export function runUpdate(run: RunItem, previous: RunItem | undefined, startedAt: number): RunUpdate {
  return { run, previous, stateChanged: previous === undefined || previous.state !== run.state, elapsedMs: Date.now() - startedAt };
}
