import { createHash } from 'node:crypto';
import type { V1Job, V1Secret } from '@kubernetes/client-node';
import type { KubernetesSettings } from '../../domain/server-config.js';
import type { SealedBudget } from '../sealed-budget.js';
import { JOB_ENV, MAX_POD_VARIABLE_BYTES, type FileLimits } from './job-limits.js';

/** The labels and annotations a worker finds its Jobs and their runs by after a restart. */
export const JOB_LABELS = {
  runId: 'agent-runs/run-id',
  workerHost: 'agent-runs/worker-host',
  /** On the pod template too: the Job's pods are listed by it. */
  job: 'agent-runs/job',
} as const;
export const JOB_ANNOTATIONS = {
  instanceId: 'agent-runs/instance-id',
  claim: 'agent-runs/claim',
  execution: 'agent-runs/execution',
  runId: 'agent-runs/run-id',
  /** The files its entrypoint may send back (`FileLimits` as JSON), for a worker that follows it after a restart. */
  fileLimits: 'agent-runs/file-limits',
  /** The run's budget and its seal (`sealed-budget.ts`), which a worker that follows it after a restart holds it to. */
  budget: 'agent-runs/budget',
  budgetSeal: 'agent-runs/budget-seal',
} as const;

/** Where the pod's `emptyDir` volume is mounted: the entrypoint's own directory (the run's working directory, its files) goes there. */
export const JOB_WORK_ROOT = '/agent-runs/work';
const WORK_VOLUME = 'work';
/**
 * Where each Secret of `env_from_secrets` is mounted too, read-only, for the entrypoint alone
 * to list its keys (`AGENT_RUNS_JOB_MASKED_DIR`): the worker may not read Secrets, so it cannot
 * name the variables `envFrom` makes, whose values the entrypoint masks. The agent has those
 * values in its environment already; the files add nothing it could not see.
 */
export const MASKED_SECRETS_ROOT = '/var/run/agent-runs/env-from';

/** A run's wall time with no duration cap of its own: the Job's `activeDeadlineSeconds`. */
export const DEFAULT_JOB_DEADLINE_SECONDS = 8 * 3600;
/** A failed Job is kept this long for a look, unless the configuration says otherwise. */
export const DEFAULT_FAILED_JOB_TTL_SECONDS = 24 * 3600;

/** A label value: at most 63 of [A-Za-z0-9._-], starting and ending alphanumeric (a run id is already so). */
export function labelValue(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '') || 'x';
}

/**
 * The Job's name: `agent-runs-<run id>-<execution>`, lowercase, within 63 characters (a
 * label, as a Job's name becomes its pods' `job-name` label). A run id too long for it is
 * cut and given a hash of the whole, so two runs never share a name.
 */
export function jobName(runId: string, execution: number): string {
  const id = runId.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const tail = `-${execution}`;
  const room = 63 - 'agent-runs-'.length - tail.length;
  const short = id.length <= room ? id : `${id.slice(0, room - 9).replace(/-+$/, '')}-${createHash('sha256').update(runId).digest('hex').slice(0, 8)}`;
  return `agent-runs-${short}${tail}`;
}

export interface JobSpecInput {
  runId: string;
  claim: string;
  execution: number;
  workerHost: string;
  instanceId: string;
  settings: KubernetesSettings;
  /** The run's wall-time cap, if it has one. */
  deadlineSeconds: number | undefined;
  fileLimits: FileLimits;
  budget: SealedBudget;
  /** The pod's plain variables: where to report and with what, the run's id and title, its file limits. */
  env: Record<string, string>;
  /**
   * The execution's own Secret (`runSecretName`) and the variables the pod takes from it by
   * reference (each under its own name as key): referenced, never their values.
   */
  runSecret?: { name: string; variables: string[] } | undefined;
}

/** The name of an execution's own Secret: its Job's name and a suffix (within a Secret name's 253). */
export function runSecretName(job: string): string {
  return `${job}-run`;
}

/**
 * Why a run's environment's secrets cannot go to its pod as variables of its own Secret, or
 * undefined: a name the run's own variables use, or a value larger than one variable may be
 * (the pod would not start). Names the secret, never its value.
 */
export function podSecretsProblem(secrets: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(secrets)) {
    if (name.startsWith('AGENT_RUNS_')) return `secret ${name}: AGENT_RUNS_* names are the run's own; rename the secret.`;
    const size = Buffer.byteLength(value);
    if (size > MAX_POD_VARIABLE_BYTES) return `secret ${name}: its value is ${size} bytes, over the ${MAX_POD_VARIABLE_BYTES} bytes one variable of the pod may hold.`;
  }
  return undefined;
}

/**
 * The Secret that hands an execution's pod what whoever may read Jobs must not read: its
 * prompt, its harness execution (the run's input with its attachments and its MCP servers'
 * headers) and its run's API token (to start and follow child runs). Each value is under its
 * variable's name. Labelled as its Job is, and owned by it from its making (the Job is made
 * first, suspended), so that whatever deletes the Job deletes it; deleted by the worker at the
 * execution's end too.
 */
export function runSecret(name: string, labels: Record<string, string>, values: Record<string, string>, owner: { job: string; uid: string }): V1Secret {
  const data = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, Buffer.from(value).toString('base64')]));
  const ownerReferences = [{ apiVersion: 'batch/v1', kind: 'Job', name: owner.job, uid: owner.uid }];
  return { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name, labels, ownerReferences }, data };
}

/** The Job that runs one execution of a run: one pod, never retried, never restarted. */
export function jobSpec(input: JobSpecInput): V1Job {
  const { settings } = input;
  const envFrom = [...new Set(settings.envFromSecrets ?? [])];
  const name = jobName(input.runId, input.execution);
  const labels = { [JOB_LABELS.runId]: labelValue(input.runId), [JOB_LABELS.workerHost]: labelValue(input.workerHost), [JOB_LABELS.job]: name };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      labels,
      annotations: {
        [JOB_ANNOTATIONS.runId]: input.runId,
        [JOB_ANNOTATIONS.instanceId]: input.instanceId,
        [JOB_ANNOTATIONS.claim]: input.claim,
        [JOB_ANNOTATIONS.execution]: String(input.execution),
        [JOB_ANNOTATIONS.fileLimits]: JSON.stringify(input.fileLimits),
        [JOB_ANNOTATIONS.budget]: input.budget.budget,
        [JOB_ANNOTATIONS.budgetSeal]: input.budget.seal,
      },
    },
    spec: {
      // Made suspended (no pod), then its Secret with the Job as owner, then resumed: a worker
      // that dies between the two leaves nothing the Job does not own (`followJob`).
      suspend: true,
      backoffLimit: 0,
      activeDeadlineSeconds: input.deadlineSeconds ?? DEFAULT_JOB_DEADLINE_SECONDS,
      // Succeeded Jobs are deleted by the worker at once; this keeps the failed ones for a look.
      ttlSecondsAfterFinished: settings.failedJobTtlSeconds ?? DEFAULT_FAILED_JOB_TTL_SECONDS,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          // The worker token never enters the pod, and neither does the cluster's API.
          automountServiceAccountToken: settings.serviceAccountName !== undefined,
          ...(settings.serviceAccountName ? { serviceAccountName: settings.serviceAccountName } : {}),
          ...(settings.runtimeClassName ? { runtimeClassName: settings.runtimeClassName } : {}),
          ...(settings.nodeSelector ? { nodeSelector: settings.nodeSelector } : {}),
          ...(settings.tolerations ? { tolerations: settings.tolerations as never } : {}),
          // Scratch space of the pod's own, gone with it: the run's checkout, its setup's output, the agent's files.
          // Optional: a missing Secret is for envFrom to report (CreateContainerConfigError), not a mount that waits forever.
          volumes: [
            { name: WORK_VOLUME, emptyDir: {} },
            ...envFrom.map((secret, i) => ({ name: `env-from-${i}`, secret: { secretName: secret, optional: true, defaultMode: 0o400 } })),
          ],
          containers: [
            {
              name: 'agent',
              image: settings.image,
              ...(settings.imagePullPolicy ? { imagePullPolicy: settings.imagePullPolicy } : {}),
              command: settings.entrypoint ?? ['agent-runs-job-entrypoint'],
              // Keys reach the pod by reference to the operator's Secrets, and the run's prompt, harness
              // execution and API token by reference to its own: their values are never in the Job's spec.
              env: [
                ...Object.entries(input.env).map(([name, value]) => ({ name, value })),
                ...(envFrom.length ? [{ name: JOB_ENV.maskedDir, value: MASKED_SECRETS_ROOT }] : []),
                ...Object.entries(settings.secretEnv ?? {}).map(([name, ref]) => ({ name, valueFrom: { secretKeyRef: { name: ref.secret, key: ref.key } } })),
                ...(input.runSecret?.variables ?? []).map((name) => ({ name, valueFrom: { secretKeyRef: { name: input.runSecret!.name, key: name } } })),
              ],
              ...(envFrom.length ? { envFrom: envFrom.map((name) => ({ secretRef: { name } })) } : {}),
              volumeMounts: [
                { name: WORK_VOLUME, mountPath: JOB_WORK_ROOT },
                ...envFrom.map((secret, i) => ({ name: `env-from-${i}`, mountPath: `${MASKED_SECRETS_ROOT}/${secret}`, readOnly: true })),
              ],
              ...(settings.resources ? { resources: settings.resources as never } : {}),
            },
          ],
        },
      },
    },
  };
}

/** The pod's plain variables besides the run's own: where to report, and the command to run (the token to report with is in the run's Secret). */
export function entrypointEnv(url: string, command: string): Record<string, string> {
  return { [JOB_ENV.url]: url, [JOB_ENV.command]: command, [JOB_ENV.workRoot]: JOB_WORK_ROOT };
}
