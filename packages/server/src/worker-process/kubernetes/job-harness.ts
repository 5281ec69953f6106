import type { HarnessesConfig, HarnessName, HarnessSettings } from '../../domain/harness-config.js';
import { harnessOf } from '../../executors/harness/harness-router.js';
import type { ExecutionContext } from '../../executors/run-executor.js';
import type { WorkerAssignment } from '../../workers/worker-protocol.js';
import { toWire } from '../../workers/worker-wire.js';
import { COMMAND_ENV } from '../../executors/command-env.js';
import { JOB_ENV } from './job-limits.js';

/**
 * A harness execution as the worker hands it to a Job's pod (a variable of its spec) or to a
 * dispatched entrypoint (in the stdin JSON): which harness, the worker's settings of it (the
 * CLI's path in the image, its extra arguments, the variables of the pod it gets), and the
 * run and its execution's input on the worker protocol's wire form, which the entrypoint
 * gives the server's own HarnessExecutor. No secret is in it: the model's key reaches the pod
 * from the operator's Secrets, the run's API token from a Secret of its own.
 */
export interface HarnessJob {
  harness: HarnessName;
  settings: Pick<HarnessSettings, 'command' | 'args' | 'env'>;
  assignment: WorkerAssignment;
}

/**
 * Above this the run's attachments are left out of the Job (a variable of a container is
 * at most 128 KiB: Linux's limit on one string of a new program's environment).
 */
export const MAX_HARNESS_JOB_CHARS = 100 * 1024;

/**
 * The harness job of an execution, or undefined when its run names no harness (and the
 * worker has no default): such a run runs the worker's `--command`. `dropped` says whether
 * its attachments were left out for size.
 */
export function harnessJobOf(context: ExecutionContext, harnesses: HarnessesConfig): { job: HarnessJob; dropped: boolean } | undefined {
  const { run, input } = context;
  const harness = harnessOf(run.agentConfig, harnesses.default);
  if (!harness) return undefined;
  const settings = harnesses.settings[harness];
  const make = (attachments: typeof input.attachments): HarnessJob => ({
    harness,
    settings: { ...(settings?.command ? { command: settings.command } : {}), args: settings?.args ?? [], env: settings?.env ?? [] },
    assignment: toWire(run.startedAt ?? '', run, { ...input, attachments }),
  });
  const whole = make(input.attachments);
  if (JSON.stringify(whole).length <= MAX_HARNESS_JOB_CHARS || input.attachments.length === 0) return { job: whole, dropped: false };
  return { job: make([]), dropped: true };
}

/**
 * The variables a remote execution gets besides the run's own: its harness job, if its run
 * names a harness, and the server's URL for an agent that starts child runs (its token goes
 * apart: a Secret of its own in a pod, the stdin JSON's `api_token` for a dispatch). `note`
 * says what the run's output should tell (attachments left out).
 */
export function remoteRunEnv(context: ExecutionContext, harnesses: HarnessesConfig): { env: Record<string, string>; note?: string } {
  const harness = harnessJobOf(context, harnesses);
  return {
    env: {
      ...(harness ? { [JOB_ENV.harness]: JSON.stringify(harness.job) } : {}),
      ...(context.agentApi ? { [COMMAND_ENV.apiUrl]: context.agentApi.url } : {}),
    },
    ...(harness?.dropped ? { note: `[agent-runs] The run's attachments were left out of its remote execution: with them it is over ${MAX_HARNESS_JOB_CHARS} characters.\n` } : {}),
  };
}
