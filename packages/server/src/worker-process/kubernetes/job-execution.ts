import { performance } from 'node:perf_hooks';
import type { V1Job, V1Pod, V1Secret } from '@kubernetes/client-node';
import type { RunBudget } from '@agent-runs/core/contract';
import type { Execution, ExecutionOutcome } from '../../executors/run-executor.js';
import type { RunSinks } from '../worker-run.js';
import { apiProblem, statusOf, type ClusterApi } from './cluster-api.js';
import type { ReceivedFiles } from './job-files.js';
import type { JobEnd } from './job-protocol.js';
import { launchJob } from './job-launch.js';
import type { JobRelay, RelayedRun } from './job-relay.js';
import { deliverThrough, FollowupQueue, takenIn } from './followup-queue.js';
import { JOB_LABELS } from './job-spec.js';
import { deadlineEnd } from './job-deadline.js';
import { configTrouble, endedPodTrouble, imageTrouble, jobTrouble, oomTrouble, unschedulableReason, type PodTrouble } from './pod-trouble.js';

/** How often a Job and its pod are looked at. */
const LOOK_MS = 1_000;
/** Looks a pod may be seen ended before the run ends saying so. */
const ENDED_LOOKS = 3;

export interface FollowJobOptions {
  api: ClusterApi;
  relay: JobRelay;
  runId: string;
  claim: string;
  jobName: string;
  sinks: RunSinks;
  unschedulableTimeoutMs: number;
  log(line: string): void;
  /** Where the files its entrypoint sends back wait for its end. */
  files: ReceivedFiles;
  /**
   * The Job to make (suspended) and the run's Secret its pod reads, owned by it (`launchJob`);
   * none when a restarted worker follows a Job that runs already.
   */
  create?: { job: V1Job; secret(owner: { job: string; uid: string }): V1Secret };
  /** The execution's own Secret (its prompt, harness execution, API token): deleted at its end (none there: nothing to do). */
  runSecret: string;
  /** A follow-up's `changes.patch` files, which its entrypoint fetches to make the run's working directory again. */
  patches?: readonly Buffer[];
  /** The budget the Job was made with: a deadline that is its `max_duration_seconds` ends the run BLOCKED (`deadlineEnd`). */
  budget?: RunBudget | undefined;
}

/** What an execution's state or end keeps with the run, as a process-backend worker's harness reports it: its usage, its harness session. */
export async function handOnEnd(end: Pick<JobEnd, 'usage' | 'harness_session_id'>, sinks: RunSinks): Promise<void> {
  // Told to the run's budget at once (it stops the execution at a cap), then kept with the run.
  if (end.usage) sinks.onUsage?.(end.usage);
  const state = { ...(end.usage ? { requestUsage: end.usage } : {}), ...(end.harness_session_id ? { harnessSessionId: end.harness_session_id } : {}) };
  if (Object.keys(state).length) await sinks.onHarnessState?.(state);
}

/** An execution that did not succeed: FAILED as its harness said why, else naming how its agent exited. */
export function endFailure(end: JobEnd): ExecutionOutcome {
  return { state: 'FAILED', statusMessage: end.status_message ?? { message: `The agent ${end.exit_code === null ? `was ended by ${end.signal ?? 'a signal'}` : `exited with code ${end.exit_code}`}.`, retryable: false } };
}

const failed = (message: string, retryable = false): ExecutionOutcome => ({ state: 'FAILED', statusMessage: { message, retryable } });

/**
 * One execution of a run as a Kubernetes Job: the Job made (or found again), what its
 * entrypoint reports taken from the relay, and the Job and its pod looked at every second
 * for what the entrypoint cannot say (an image that will not pull, no node for the pod, an
 * OOM kill, the deadline). A succeeded Job is deleted; a failed one is left to its TTL.
 */
export function followJob(o: FollowJobOptions): Execution {
  let settle!: (outcome: ExecutionOutcome) => void;
  const done = new Promise<ExecutionOutcome>((resolve) => (settle = resolve));
  let over = false;
  let endSeen = false;
  let timer: NodeJS.Timeout | undefined;
  let unschedulableSince: number | undefined;
  let lastProblem: string | undefined;
  let endedLooks = 0;
  const { api, relay, runId, jobName } = o;
  const followups = new FollowupQueue();

  const remove = async (why: string): Promise<void> => {
    try {
      await api.batch.deleteNamespacedJob({ name: jobName, namespace: api.namespace, propagationPolicy: 'Foreground' });
    } catch (error) {
      if (statusOf(error) !== 404) o.log(`Run ${runId}: could not delete its Job ${jobName} (${why}): ${apiProblem(error)}`);
    }
  };

  /** The run's Secret: its run token is revoked at the run's end, and the Secret goes at the execution's (a failed Job kept for its TTL keeps no token, prompt or MCP header). */
  const removeSecret = async (): Promise<void> => {
    try {
      await api.core.deleteNamespacedSecret({ name: o.runSecret, namespace: api.namespace });
    } catch (error) {
      if (statusOf(error) !== 404) o.log(`Run ${runId}: could not delete its run's Secret ${o.runSecret}: ${apiProblem(error)}`);
    }
  };

  const finish = (outcome: ExecutionOutcome, deleteJob: string | undefined): void => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    relay.detach(runId, relayed);
    followups.close();
    if (deleteJob) void remove(deleteJob);
    void removeSecret();
    settle(outcome);
  };

  const podsOf = async (): Promise<V1Pod[]> =>
    (await api.core.listNamespacedPod({ namespace: api.namespace, labelSelector: `${JOB_LABELS.job}=${jobName}` })).items;

  const ended = async (end: JobEnd): Promise<void> => {
    endSeen = true;
    // Its agent is over: a follow-up sent from now on waits for the run's next execution.
    followups.close();
    await handOnEnd(end, o.sinks);
    const artifacts = [...o.files.list(), ...(end.artifacts ?? [])];
    const withFiles = { ...(artifacts.length ? { artifacts } : {}), ...takenIn(end) };
    if (end.exit_code === 0) return finish({ state: 'SUCCEEDED', ...(end.status_message ? { statusMessage: end.status_message } : {}), ...withFiles }, 'it succeeded');
    // The kernel's OOM kill reaches the entrypoint as a plain SIGKILL, and the deadline as the pod's SIGTERM: the pod and the Job say which it was.
    const oom = await podsOf().then((pods) => pods.map(oomTrouble).find(Boolean), () => undefined);
    const deadline = oom ? undefined : await api.batch.readNamespacedJob({ name: jobName, namespace: api.namespace }).then((job) => deadlineEnd(job, o.budget), () => undefined);
    finish({ ...(oom ? failed(oom.message) : (deadline ?? endFailure(end))), ...withFiles }, undefined);
  };

  const relayed: RelayedRun = {
    claim: o.claim,
    output: ({ lines }) => {
      if (!over) for (const line of lines) o.sinks.onOutput(line.text, line.stream);
    },
    end: (end) => (over || endSeen ? Promise.resolve() : ended(end)),
    state: (state) => {
      if (!over && !endSeen) void handOnEnd(state, o.sinks);
    },
    files: o.files,
    followups,
    ...(o.patches ? { patches: o.patches } : {}),
  };

  const troubled = (trouble: PodTrouble, keep: boolean) => {
    o.log(`Run ${runId}: ${trouble.message}`);
    finish(failed(trouble.message, trouble.kind !== 'oom'), keep ? undefined : trouble.kind);
  };

  const look = async (): Promise<void> => {
    if (over || endSeen) return;
    let job: V1Job;
    let pods: V1Pod[];
    try {
      // The pods first: a pod seen ended has its Job's verdict (a deadline) in the read after it, where Kubernetes wrote one.
      pods = await podsOf();
      job = await api.batch.readNamespacedJob({ name: jobName, namespace: api.namespace });
    } catch (error) {
      if (statusOf(error) === 404) return finish(failed(`The run's Job ${jobName} was deleted before its agent reported how it ended.`, true), undefined);
      const problem = apiProblem(error);
      if (problem !== lastProblem) o.log(`Run ${runId}: cannot look at its Job (${problem}); trying again.`);
      lastProblem = problem;
      return;
    }
    lastProblem = undefined;
    if (over || endSeen) return;
    // Only once the Job has `Failed`: while its pod terminates (`FailureTarget`), its entrypoint's end may still come, with its files and usage.
    const deadline = job.status?.conditions?.some((c) => c.type === 'Failed' && c.status === 'True') ? deadlineEnd(job, o.budget) : undefined;
    const fromJob = jobTrouble(job);
    for (const pod of pods) {
      const image = imageTrouble(pod) ?? configTrouble(pod);
      if (image) return troubled(image, false);
      const oom = oomTrouble(pod);
      if (oom) return troubled(oom, true);
    }
    if (deadline) {
      o.log(`Run ${runId}: ${deadline.statusMessage?.message ?? 'its Job passed its deadline.'}`);
      return finish(deadline, undefined);
    }
    if (fromJob) return troubled(fromJob, true);
    const waiting = pods.map(unschedulableReason).find((reason) => reason !== undefined);
    if (waiting === undefined) unschedulableSince = undefined;
    else {
      const now = performance.now();
      unschedulableSince ??= now;
      if (now - unschedulableSince >= o.unschedulableTimeoutMs) {
        const message = `The Job's pod could not be scheduled within ${Math.round(o.unschedulableTimeoutMs / 1000)} s (Unschedulable): ${waiting.replace(/\s+/g, ' ').slice(0, 300)}`;
        return troubled({ kind: 'unschedulable', message }, false);
      }
    }
    const gone = pods.map(endedPodTrouble).find(Boolean);
    // Ended without a word: given a few looks for the Job controller to say why, or the entrypoint's end to land.
    if (gone && ++endedLooks >= ENDED_LOOKS) return troubled(gone, true);
  };

  const tick = () => {
    timer = setTimeout(() => {
      void look().finally(() => {
        if (!over) tick();
      });
    }, LOOK_MS);
  };

  relay.attach(runId, relayed);
  void (async () => {
    if (o.create) {
      const launch = await launchJob({ api, runId, job: o.create.job, secret: o.create.secret, stopped: () => over, remove, log: o.log });
      if (launch.kind === 'failed') return finish(launch.outcome, undefined);
    }
    if (!over) tick();
  })();

  return {
    done,
    async cancel() {
      if (over) return;
      finish(failed('The run was stopped.'), undefined);
      await remove('the run was stopped');
    },
    deliver: deliverThrough(followups, runId, o.log),
  };
}
