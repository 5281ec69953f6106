import * as core from '@actions/core';

/** The runner sends SIGINT, then SIGTERM 7.5 s later, then kills: finish before the SIGTERM. */
export const EXIT_DEADLINE_MS = 7_000;

export interface JobCancellation {
  /** Aborted when the runner cancels the job. */
  readonly signal: AbortSignal;
  readonly requested: boolean;
  /** Stops listening (the step is over). */
  dispose(): void;
}

/**
 * Turns the runner's SIGINT/SIGTERM into an AbortSignal, so that the wait stops and the
 * run can be cancelled, and guarantees an exit inside the runner's window whatever happens.
 */
export function watchJobCancellation(deadlineMs = EXIT_DEADLINE_MS): JobCancellation {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return;
    core.info(`The job is being cancelled (${signal}).`);
    // The exit below is the last resort; the post step cancels a run this step could not.
    setTimeout(() => {
      core.setFailed('The job was cancelled and the run could not be cancelled in time; the post step will try again.');
      process.exit(1);
    }, deadlineMs).unref();
    controller.abort(new Error(`job cancelled (${signal})`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    get requested() {
      return controller.signal.aborted;
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
