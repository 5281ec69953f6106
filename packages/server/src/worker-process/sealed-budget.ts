import { createHmac, timingSafeEqual } from 'node:crypto';
import { RunBudgetSchema, type RunBudget } from '@agent-runs/core/contract';

/**
 * A run's budget as the worker that starts an execution records it where the execution runs
 * (its Job's annotations, its dispatched run's note), for the worker that follows it again
 * after a restart: the budget as JSON, and a seal derived from the worker token over it, the
 * run and its claim. Neither the worker token nor anything derived from it reaches the
 * agent's side, so nothing written there (a pod whose service account may edit Jobs, a
 * dispatched agent on this machine) raises the budget, takes it off, or moves it to another
 * run; and the restarted worker keeps no state of its own to check it.
 */
export interface SealedBudget {
  /** The run's `agent_config.budget` as JSON; `{}` for a run without one. */
  budget: string;
  seal: string;
}

/** What a restarted worker reads back: the run's budget (none: it has none), or that no budget this worker sealed is there. */
export type ReadBudget = { sealed: true; budget?: RunBudget } | { sealed: false };

export function sealBudget(workerToken: string, runId: string, claim: string, budget: RunBudget | undefined): SealedBudget {
  const text = JSON.stringify(budget ?? {});
  return { budget: text, seal: sealOf(workerToken, runId, claim, text) };
}

/** The budget a record holds if its seal is this worker's for this run and claim; missing (a record of an earlier version) or not, `sealed: false`. */
export function readBudget(workerToken: string, runId: string, claim: string, record: { budget: string | undefined; seal: string | undefined }): ReadBudget {
  if (record.budget === undefined || record.seal === undefined) return { sealed: false };
  const expected = Buffer.from(sealOf(workerToken, runId, claim, record.budget));
  const given = Buffer.from(record.seal);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { sealed: false };
  const json = JSON.parse(record.budget) as Record<string, unknown>;
  if (Object.keys(json).length === 0) return { sealed: true };
  const parsed = RunBudgetSchema.safeParse(json);
  return parsed.success ? { sealed: true, budget: parsed.data } : { sealed: false };
}

function sealOf(workerToken: string, runId: string, claim: string, budget: string): string {
  return createHmac('sha256', workerToken).update(`agent-runs budget\n${runId}\n${claim}\n${budget}`).digest('base64url');
}
