import type { V1Job, V1JobCondition } from '@kubernetes/client-node';
import type { RunBudget } from '@agent-runs/core/contract';
import { budgetStopMessage, durationReached } from '../../executors/budget-stop.js';
import type { ExecutionOutcome } from '../../executors/run-executor.js';
import { kubeTime } from './kube-time.js';

/**
 * The Job controller's word that the Job's activeDeadlineSeconds passed: `Failed`, or the
 * `FailureTarget` a controller of Kubernetes 1.31 and later writes first, while it terminates
 * the pod (whose entrypoint, told SIGTERM, may report its agent's end before `Failed` comes).
 */
export function deadlineCondition(job: V1Job): V1JobCondition | undefined {
  return job.status?.conditions?.find((c) => (c.type === 'Failed' || c.type === 'FailureTarget') && c.status === 'True' && c.reason === 'DeadlineExceeded');
}

/**
 * How a run whose Job passed its deadline ends, or undefined while it has not. A deadline that
 * is the run's own `max_duration_seconds` ends it BLOCKED with the server's words for that cap,
 * as the server's executor ends its runs there, so a follow-up with a raised cap continues it.
 * Any other (the worker's default for a run without a cap, or one edited on the Job) ends it
 * FAILED: nobody asked for that stop, and no raised cap lifts it.
 */
export function deadlineEnd(job: V1Job, budget: RunBudget | undefined): ExecutionOutcome | undefined {
  const passed = deadlineCondition(job);
  if (!passed) return undefined;
  const seconds = job.spec?.activeDeadlineSeconds;
  const cap = budget?.max_duration_seconds;
  if (cap !== undefined && seconds === cap) {
    // From the controller's own timestamps (whole seconds): never said as less than the cap it stopped at.
    const started = kubeTime(job.status?.startTime);
    const stopped = kubeTime(passed.lastTransitionTime);
    const measured = started !== undefined && stopped !== undefined ? stopped - started : 0;
    return { state: 'BLOCKED', statusMessage: budgetStopMessage(durationReached(budget!, Math.max(cap * 1000, measured))) };
  }
  const why = cap === undefined ? "the worker's default for a run without max_duration_seconds" : "not the run's max_duration_seconds";
  return { state: 'FAILED', statusMessage: { message: `The run passed its deadline of ${seconds ?? '?'} s (the Job's activeDeadlineSeconds, ${why}), and Kubernetes stopped its pod.`, retryable: true } };
}
