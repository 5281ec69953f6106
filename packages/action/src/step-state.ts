import * as core from '@actions/core';

/** Names under which the main step leaves facts for the post step (the runner passes them as STATE_*). */
const KEYS = { isPost: 'isPost', runId: 'run-id', cancelInPost: 'cancel-in-post' } as const;

/**
 * One bundle serves both steps of action.yml: the main step marks its state first thing,
 * and the runner hands that state to the post step only.
 */
export function isPostStep(): boolean {
  return core.getState(KEYS.isPost) === 'true';
}

export function markMainStepStarted(): void {
  core.saveState(KEYS.isPost, 'true');
}

/** Remember the run, and whether the post step should cancel it if it is still going. */
export function saveRunForPost(runId: string, cancelInPost: boolean): void {
  core.saveState(KEYS.runId, runId);
  core.saveState(KEYS.cancelInPost, String(cancelInPost));
}

/** The main step chose to leave the run going (fire and forget, or a timeout without cancel). */
export function leaveRunToItself(): void {
  core.saveState(KEYS.cancelInPost, 'false');
}

export function savedRun(): { runId: string; cancelInPost: boolean } | undefined {
  const runId = core.getState(KEYS.runId);
  return runId ? { runId, cancelInPost: core.getState(KEYS.cancelInPost) === 'true' } : undefined;
}
