import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token a Job's entrypoint reports with: good for one run's execution under one claim,
 * derived from the worker token so that a restarted worker checks it without keeping any
 * state, and so that neither the worker token nor a principal's key ever enters a pod. The
 * claim changes whenever the run is claimed again, so an old pod's token opens nothing new.
 */
export function entrypointToken(workerToken: string, runId: string, claim: string): string {
  return createHmac('sha256', workerToken).update(`agent-runs job\n${runId}\n${claim}`).digest('base64url');
}

/** Whether `given` is the run's token, compared in constant time. */
export function isEntrypointToken(given: string, workerToken: string, runId: string, claim: string): boolean {
  const expected = Buffer.from(entrypointToken(workerToken, runId, claim));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
