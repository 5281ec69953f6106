import type { V1Job, V1Secret } from '@kubernetes/client-node';
import type { ExecutionOutcome } from '../../executors/run-executor.js';
import type { GiveBack } from '../worker-run.js';
import { apiProblem, statusOf, type ClusterApi } from './cluster-api.js';
import { kubeTime } from './kube-time.js';

/**
 * How an execution's Job is started, in the one order no crash point leaves a Secret nobody
 * deletes (the worker may create, update and delete Secrets, never get or list them, so it
 * could not find one it lost track of):
 *
 * 1. the Job, suspended (`spec.suspend`: no pod yet);
 * 2. its run's Secret, owned by the Job from its making (`ownerReferences`): whatever
 *    deletes the Job deletes it too;
 * 3. the Job resumed (`suspend: false`): its pod starts, its Secret there.
 *
 * A worker killed after 1 or 2 leaves a suspended Job, which its restart deletes
 * (`abandonSuspendedJob`), and the Secret, if it was made, goes with it; the run is given back.
 */
export type Launch = { kind: 'started' } | { kind: 'stopped' } | { kind: 'failed'; outcome: ExecutionOutcome };

export interface LaunchJobOptions {
  api: ClusterApi;
  runId: string;
  job: V1Job;
  /** The run's Secret, owned by the Job made. */
  secret(owner: { job: string; uid: string }): V1Secret;
  /** Whether the run was stopped meanwhile: the Job made is then deleted, and nothing started. */
  stopped(): boolean;
  /** Deletes the Job (foreground: its pod, and the Secret it owns, go with it). */
  remove(why: string): Promise<void>;
  log(line: string): void;
}

const error = (message: string): Launch => ({ kind: 'failed', outcome: { state: 'ERROR', statusMessage: { message, error_code: 'internal_error', retryable: true } } });

export async function launchJob(o: LaunchJobOptions): Promise<Launch> {
  const { api, runId } = o;
  const name = o.job.metadata!.name!;
  const namespace = api.namespace;
  let uid: string | undefined;
  try {
    uid = (await api.batch.createNamespacedJob({ namespace, body: o.job })).metadata?.uid;
    o.log(`Run ${runId}: Job ${name} created in ${namespace}.`);
  } catch (problem) {
    if (statusOf(problem) !== 409) return error(`The worker could not create the run's Job: ${apiProblem(problem)}.`);
    // Already there: made by this worker before an answer it lost; its Secret is made (again) and it is resumed.
    try {
      uid = (await api.batch.readNamespacedJob({ name, namespace })).metadata?.uid;
    } catch (again) {
      return error(`The worker could not read the run's Job: ${apiProblem(again)}.`);
    }
  }
  if (o.stopped()) return stop(o, 'the run was stopped while its Job was made');
  if (!uid) {
    await o.remove('the cluster gave it no uid');
    return error(`The cluster gave the run's Job ${name} no uid to make it its Secret's owner.`);
  }
  const secret = o.secret({ job: name, uid });
  try {
    await api.core.createNamespacedSecret({ namespace, body: secret });
  } catch (problem) {
    // Already there (left by an earlier try whose Job was deleted without it): made again with this claim's values and owner.
    const replaced = statusOf(problem) === 409 ? await api.core.replaceNamespacedSecret({ name: secret.metadata!.name!, namespace, body: secret }).then(() => undefined, (again: unknown) => again) : problem;
    if (replaced !== undefined) {
      await o.remove('its Secret could not be made');
      return error(`The worker could not create the run's Secret: ${apiProblem(replaced)}.`);
    }
  }
  if (o.stopped()) return stop(o, 'the run was stopped while its Secret was made');
  try {
    // A JSON patch (the client's default content type for a patch): the one field, nothing else of the Job touched.
    await api.batch.patchNamespacedJob({ name, namespace, body: [{ op: 'replace', path: '/spec/suspend', value: false }] });
  } catch (problem) {
    await o.remove('it could not be resumed');
    return error(`The worker could not start the run's Job: ${apiProblem(problem)}.`);
  }
  return { kind: 'started' };
}

async function stop(o: LaunchJobOptions, why: string): Promise<Launch> {
  await o.remove(why);
  return { kind: 'stopped' };
}

/**
 * A Job found suspended after a restart: its worker died between making it and resuming it,
 * so its agent never ran. It is deleted in the foreground (its Secret, if made, goes with it)
 * and the run given back to the server's line, to run again in a new Job; a server that
 * cannot take it back has it end FAILED, saying nothing ran. Resuming it instead would need
 * its Secret, which this worker can neither see (no `get` on Secrets) nor make again (the
 * prompt and harness execution came with the assignment the restart lost).
 */
export async function abandonSuspendedJob(api: ClusterApi, runId: string, name: string, log: (line: string) => void): Promise<GiveBack> {
  try {
    await api.batch.deleteNamespacedJob({ name, namespace: api.namespace, propagationPolicy: 'Foreground' });
    log(`Run ${runId}: its Job ${name} was still suspended after a restart; deleted with its Secret.`);
  } catch (problem) {
    if (statusOf(problem) !== 404) log(`Run ${runId}: could not delete its suspended Job ${name}: ${apiProblem(problem)}`);
  }
  return {
    reason: `the worker restarted while it was starting the run's Job ${name}; the Job and its Secret were deleted`,
    fallback: {
      state: 'FAILED',
      statusMessage: { message: `The worker restarted while it was starting the run's Job, before its agent started: nothing ran. The Job ${name} and its Secret were deleted.`, error_code: 'internal_error', retryable: true },
    },
  };
}

/**
 * How long another instance's Job may stay suspended before a starting worker takes it for
 * abandoned: its start takes three API calls, well under a second; ten minutes is past any
 * API call's bound, so the instance that made it is gone (a rollout replaced its pod, which
 * never came back under its name).
 */
export const ABANDONED_SUSPENDED_MS = 10 * 60_000;

/**
 * Whether a Job of another instance of the pool is a start left unfinished: suspended since
 * longer than `ABANDONED_SUSPENDED_MS`. Its run's lease lapsed long ago (the server ended it),
 * and no TTL ever removes it, as a suspended Job never finishes.
 */
export function abandonedBy(job: V1Job, now: number): boolean {
  if (job.spec?.suspend !== true) return false;
  const made = kubeTime(job.metadata?.creationTimestamp);
  return made !== undefined && now - made > ABANDONED_SUSPENDED_MS;
}

/** Deletes another instance's abandoned suspended Job (foreground: its Secret, if made, goes with it). */
export async function removeAbandonedJob(api: ClusterApi, name: string, log: (line: string) => void): Promise<void> {
  try {
    await api.batch.deleteNamespacedJob({ name, namespace: api.namespace, propagationPolicy: 'Foreground' });
    log(`Job ${name} of another worker instance was left suspended for over ${ABANDONED_SUSPENDED_MS / 60_000} minutes (that instance is gone); deleted with its Secret.`);
  } catch (problem) {
    if (statusOf(problem) !== 404) log(`Could not delete Job ${name}, left suspended by another worker instance: ${apiProblem(problem)}`);
  }
}
