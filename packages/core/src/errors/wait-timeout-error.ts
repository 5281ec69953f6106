import type { RunItem } from '../contract/run-item.js';
import { AgentRunsError } from './agent-runs-error.js';

/** `runs.wait` ran out of time; the run goes on. Carries the last run seen. */
export class WaitTimeoutError extends AgentRunsError {
  override name = 'WaitTimeoutError';
  readonly runId: string;
  /** The last state fetched, or undefined when no fetch succeeded. */
  readonly lastRun: RunItem | undefined;
  readonly elapsedMs: number;
  constructor(runId: string, lastRun: RunItem | undefined, elapsedMs: number) {
    super(
      `Run ${runId} did not reach a terminal state within ${Math.round(elapsedMs / 1000)}s` +
        (lastRun ? ` (last state ${lastRun.state}).` : '.') +
        ' It is still running: wait again, or cancel it.',
    );
    this.runId = runId;
    this.lastRun = lastRun;
    this.elapsedMs = elapsedMs;
  }
}
