import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SecretMask } from '../../domain/secret-mask.js';
import { JOB_ENV } from './job-limits.js';
import type { JobEnd } from './job-protocol.js';

/**
 * What the entrypoint masks in everything it sends the worker (the agent's lines, its own
 * notes, the files' paths, the end): the run's API token, its environment's secrets and the
 * operator's (`kubernetes.secret_env`, `env_from_secrets`), by the values this pod (or
 * dispatched process) was given. A problem when the list of names is not one, or the
 * mounted Secrets cannot be read (the entrypoint then refuses to run rather than relay unmasked).
 *
 * Masked here, at the source, because every word of the agent reaches the server through this
 * process: a worker restarted while the agent runs follows the execution again without its
 * start, so it knows neither the run's environment nor, had the secret been rotated since, the
 * value the agent holds. The pod has exactly those values already; the worker learning them
 * again would take `get` on Secrets (the cluster's every Secret in the namespace, the
 * operator's too) or a copy kept on its disk, neither of which it needs this way.
 */
export function entrypointMask(env: NodeJS.ProcessEnv): SecretMask | { problem: string } {
  const names = maskedNames(env[JOB_ENV.masked]);
  if (!names) return { problem: `${JOB_ENV.masked} is not a JSON list of variable names` };
  const dir = env[JOB_ENV.maskedDir];
  let mounted: string[] = [];
  if (dir) {
    try {
      mounted = secretKeysUnder(dir);
    } catch (error) {
      return { problem: `the Secrets mounted at ${JOB_ENV.maskedDir} (${dir}) cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
  }
  const values = [JOB_ENV.apiToken, ...names, ...mounted].map((name) => env[name]).filter((value): value is string => typeof value === 'string' && value !== '');
  return new SecretMask(values);
}

/**
 * The keys of the Secrets mounted under `dir`, one directory each: a Secret volume holds a
 * link per key, beside the kubelet's own `..data` and timestamped entries (skipped). The
 * values are not read: the pod's environment has them, as `envFrom` gave them.
 */
function secretKeysUnder(dir: string): string[] {
  const keys = (path: string) => readdirSync(path).filter((name) => !name.startsWith('..'));
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => keys(join(dir, entry.name)));
}

/** The names `AGENT_RUNS_JOB_MASKED` lists (none when unset: a worker from before it), or undefined when it is no list of names. */
function maskedNames(text: string | undefined): string[] | undefined {
  if (text === undefined || text === '') return [];
  try {
    const names: unknown = JSON.parse(text);
    if (Array.isArray(names) && names.every((name) => typeof name === 'string')) return names as string[];
  } catch {
    // Said by the caller.
  }
  return undefined;
}

/** The end with its text masked: the status message (a report's result, a harness's answer) and the other artifacts' fields, field by field. */
export function maskedEnd(mask: SecretMask, end: JobEnd): JobEnd {
  if (mask.empty) return end;
  return {
    ...end,
    ...(end.status_message ? { status_message: { ...end.status_message, message: mask.mask(end.status_message.message) } } : {}),
    ...(end.artifacts ? { artifacts: end.artifacts.map((artifact) => ({ ...artifact, data: mask.maskStrings(artifact.data) })) } : {}),
  };
}
