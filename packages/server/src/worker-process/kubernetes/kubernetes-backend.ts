import type { V1Job, V1Secret } from '@kubernetes/client-node';
import type { RunBudget } from '@agent-runs/core/contract';
import { COMMAND_ENV } from '../../executors/command-env.js';
import type { Execution, ExecutionContext, RunExecutor } from '../../executors/run-executor.js';
import type { EnvironmentConfig, KubernetesSettings } from '../../domain/server-config.js';
import type { RunRecord } from '../../store/runs/run-record.js';
import type { ReattachedRun } from '../poll-loop.js';
import type { RunSinks } from '../worker-run.js';
import { apiProblem, type ClusterApi } from './cluster-api.js';
import { followJob } from './job-execution.js';
import { abandonedBy, abandonSuspendedJob, removeAbandonedJob } from './job-launch.js';
import { fileLimitsOf, ReceivedFiles } from './job-files.js';
import { fileLimitsFrom, JOB_ENV, type FileLimits } from './job-limits.js';
import { kubeTime } from './kube-time.js';
import type { JobRelay } from './job-relay.js';
import { entrypointEnv, JOB_ANNOTATIONS, JOB_LABELS, jobName, jobSpec, labelValue, podSecretsProblem, runSecret, runSecretName } from './job-spec.js';
import { entrypointToken } from './entrypoint-token.js';
import { executionPrompt } from '../execution-prompt.js';
import type { HarnessesConfig } from '../../domain/harness-config.js';
import { remoteRunEnv } from './job-harness.js';
import { readBudget, sealBudget } from '../sealed-budget.js';

export interface KubernetesBackendOptions {
  api: ClusterApi;
  relay: JobRelay;
  /** What the pods reach the relay at. */
  relayUrl: string;
  settings: KubernetesSettings;
  workerToken: string;
  workerHost: string;
  instanceId: string;
  /** The agent command each pod runs for a run that names no harness. */
  command: string;
  /** The worker's `harnesses:` section: a run naming a harness runs its CLI in the pod, through the server's harness code. */
  harnesses: HarnessesConfig;
  /** The environments of the worker's configuration file, by id: a run's checkout and setup are made in its pod. */
  environments: { get(id: string): EnvironmentConfig | undefined };
  /** The run's environment's named secrets: variables of its pod, from the execution's own Secret. */
  secretsOf(run: RunRecord): Record<string, string>;
  unschedulableTimeoutMs: number;
  log(line: string): void;
}

const NAME = 'kubernetes';


/**
 * The worker's executor with `--backend kubernetes`: each execution of a run is a Job in the
 * cluster, whose pod runs our entrypoint, which runs the agent command and reports to this
 * worker under a token good for the run alone. After a restart, `reattach` finds the Jobs
 * this instance made that still run, and follows them again.
 */
export class KubernetesBackend implements RunExecutor {
  readonly name = NAME;

  constructor(private readonly o: KubernetesBackendOptions) {}

  start(context: ExecutionContext): Execution {
    const { run, input } = context;
    // The worker runs a run under the claim the server gave it, as its `startedAt`.
    const claim = run.startedAt ?? '';
    const config = run.agentConfig;
    const limits = fileLimitsOf(input);
    const environment = config.environment_id ? this.o.environments.get(config.environment_id) : undefined;
    const remote = remoteRunEnv(context, this.o.harnesses, environment);
    const secrets = this.o.secretsOf(run);
    const problem = remote.problem ?? podSecretsProblem(secrets);
    if (problem) return { done: Promise.resolve({ state: 'FAILED', statusMessage: { message: `The run's Job could not be made: ${problem}`, retryable: false } }), cancel: async () => {} };
    if (remote.note) context.onOutput(remote.note, 'stderr');
    const env = {
      [COMMAND_ENV.runId]: run.id,
      [COMMAND_ENV.modelId]: config.model_id ?? '',
      [COMMAND_ENV.environmentId]: config.environment_id ?? '',
      [COMMAND_ENV.execution]: String(input.number),
      ...remote.env,
      ...entrypointEnv(this.o.relayUrl, this.o.command),
      [JOB_ENV.fileLimits]: JSON.stringify(limits),
      // Which variables are the environment's secrets and the operator's (`secret_env`), by name only (the spec
      // references each by name already): the entrypoint masks their values in all it reports, so a worker restarted
      // meanwhile, which follows the Job again knowing none of them, needs no `get` on Secrets to keep them out of the
      // run's output (`entrypoint-mask.ts`). Those of `env_from_secrets` it finds by their mounted keys.
      [JOB_ENV.masked]: JSON.stringify([...new Set([...Object.keys(secrets), ...Object.keys(this.o.settings.secretEnv ?? {})])]),
    };
    // What whoever may read Jobs must not read reaches the pod from a Secret of the execution's
    // own: the prompts (and the title, by default the prompt's start), the harness execution
    // (its input, its MCP servers' headers), the run's API token (to start child runs), and the
    // relay's token the entrypoint reports with.
    // The environment's secrets first: the run's own variables are never theirs to set.
    const hidden: Record<string, string> = {
      ...secrets,
      [JOB_ENV.token]: entrypointToken(this.o.workerToken, run.id, claim),
      [COMMAND_ENV.title]: run.title,
      [JOB_ENV.prompt]: executionPrompt(context),
      [COMMAND_ENV.basePrompt]: config.base_prompt ?? '',
      ...remote.secretEnv,
      ...(context.agentApi ? { [JOB_ENV.apiToken]: context.agentApi.token } : {}),
    };
    const secretName = runSecretName(jobName(run.id, input.number));
    const create = jobSpec({
      runId: run.id,
      claim,
      execution: input.number,
      workerHost: this.o.workerHost,
      instanceId: this.o.instanceId,
      settings: this.o.settings,
      deadlineSeconds: config.budget?.max_duration_seconds,
      fileLimits: limits,
      budget: sealBudget(this.o.workerToken, run.id, claim, config.budget),
      env,
      runSecret: { name: secretName, variables: Object.keys(hidden) },
    });
    const secret = (owner: { job: string; uid: string }) => runSecret(secretName, create.metadata!.labels!, hidden, owner);
    const sinks = { onOutput: context.onOutput, ...(context.onHarnessState ? { onHarnessState: context.onHarnessState } : {}), ...(context.onUsage ? { onUsage: context.onUsage } : {}) };
    return this.follow(run.id, claim, create.metadata!.name!, limits, sinks, config.budget, { job: create, secret }, context.restore?.patches);
  }

  /**
   * The Jobs this instance made that still run: followed again rather than failed or made
   * twice. A succeeded one left over is deleted; a failed one is left to its TTL; one still
   * suspended (its worker died while starting it: its agent never ran) is deleted with its
   * Secret, and its run given back to the server's line (`abandonSuspendedJob`). Another instance's Job
   * suspended for over ten minutes is deleted too (`abandonedBy`): that instance is gone.
   */
  async reattach(leaseMs: number): Promise<ReattachedRun[]> {
    const { api } = this.o;
    let jobs: V1Job[];
    try {
      jobs = (await api.batch.listNamespacedJob({ namespace: api.namespace, labelSelector: `${JOB_LABELS.workerHost}=${labelValue(this.o.workerHost)}` })).items;
    } catch (error) {
      throw new Error(apiProblem(error));
    }
    const found: ReattachedRun[] = [];
    for (const job of jobs) {
      const notes = job.metadata?.annotations ?? {};
      if (notes[JOB_ANNOTATIONS.instanceId] !== this.o.instanceId) {
        // Another instance of the pool runs it: not this one's to touch, unless that instance
        // died starting it and never came back (its suspended Job and Secret would stay forever).
        if (job.metadata?.name && abandonedBy(job, Date.now())) await removeAbandonedJob(api, job.metadata.name, this.o.log);
        continue;
      }
      const runId = notes[JOB_ANNOTATIONS.runId];
      const claim = notes[JOB_ANNOTATIONS.claim];
      const execution = Number(notes[JOB_ANNOTATIONS.execution]);
      const name = job.metadata?.name;
      // Annotations anyone who may edit Jobs could have written: only what this worker writes is followed.
      if (!runId || !/^[A-Za-z0-9_-]{1,100}$/.test(runId) || !claim || claim.length > 64 || !Number.isInteger(execution) || execution < 1 || !name || name !== jobName(runId, execution)) continue;
      const finished = job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
      if (finished?.type === 'Complete') {
        void this.o.api.batch.deleteNamespacedJob({ name, namespace: api.namespace, propagationPolicy: 'Foreground' }).catch(() => undefined);
        continue;
      }
      // Failed while this worker was down (its deadline, an OOM kill): its entrypoint had no
      // worker to tell, so the run may not know. Within a lease of the failure the run is still
      // this worker's to end, followed as a live Job is and ended by the Job's verdict (a
      // budget's deadline BLOCKED); older, the server has ended it already, or it was told.
      const finishedAt = kubeTime(finished?.lastTransitionTime);
      if (finished && !(finishedAt !== undefined && Date.now() - finishedAt < leaseMs)) continue;
      if (job.spec?.suspend === true) {
        // Its agent never ran: no budget to hold it to.
        found.push({ runId, claim, budget: { sealed: true }, start: { execution, executorName: NAME, giveBack: () => abandonSuspendedJob(api, runId, name, this.o.log) } });
        continue;
      }
      // The limits it was made with, for the files it sends after the restart (the server holds the run to them again).
      const limits = fileLimitsFrom(notes[JOB_ANNOTATIONS.fileLimits]);
      const budget = readBudget(this.o.workerToken, runId, claim, { budget: notes[JOB_ANNOTATIONS.budget], seal: notes[JOB_ANNOTATIONS.budgetSeal] });
      // Unsealed, it is not followed at all (`followedStart`).
      const held = budget.sealed ? budget.budget : undefined;
      found.push({ runId, claim, budget, start: { execution, executorName: NAME, begin: (sinks) => this.follow(runId, claim, name, limits, sinks, held) } });
    }
    this.o.relay.markReady();
    return found;
  }

  private follow(runId: string, claim: string, name: string, limits: FileLimits, sinks: RunSinks, budget: RunBudget | undefined, create?: { job: V1Job; secret(owner: { job: string; uid: string }): V1Secret }, patches?: readonly Buffer[]): Execution {
    const { api, relay, unschedulableTimeoutMs, log } = this.o;
    // A Job followed again after a restart may have its Secret: deleted at its end all the same (none there: nothing to do).
    return followJob({ api, relay, runId, claim, jobName: name, sinks, unschedulableTimeoutMs, log, files: new ReceivedFiles(limits), runSecret: runSecretName(name), budget, ...(create ? { create } : {}), ...(patches ? { patches } : {}) });
  }
}
