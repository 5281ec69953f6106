import type { HarnessesConfig, HarnessName, HarnessSettings } from '../../domain/harness-config.js';
import { harnessOf } from '../../executors/harness/harness-router.js';
import type { ExecutionContext } from '../../executors/run-executor.js';
import type { WorkerAssignment } from '../../workers/worker-protocol.js';
import { toWire } from '../../workers/worker-wire.js';
import { COMMAND_ENV } from '../../executors/command-env.js';
import { JOB_ENV } from './job-limits.js';

/**
 * A harness execution as the worker hands it to a Job's pod (a variable from the execution's
 * own Secret) or to a dispatched entrypoint (in the stdin JSON): which harness, the worker's
 * settings of it (the CLI's path in the image, its extra arguments, the variables of the pod
 * it gets), and the run and its execution's input on the worker protocol's wire form, which
 * the entrypoint gives the server's own HarnessExecutor. The input holds the prompt, the
 * attachments and the run's MCP servers with their headers (bearer tokens, some): hence never
 * in a Job's spec. The model's key is not in it: it reaches the pod from the operator's Secrets.
 */
export interface HarnessJob {
  harness: HarnessName;
  settings: Pick<HarnessSettings, 'command' | 'args' | 'env'>;
  assignment: WorkerAssignment;
}

/**
 * Above this many bytes (UTF-8, as the pod's environment holds it) the run's attachments are
 * left out of its harness execution. The value travels in the execution's Secret (1 MiB in
 * all), but the pod still gets it as a variable, and Linux refuses a new program any one
 * string of its environment over 128 KiB (MAX_ARG_STRLEN, the name included): past that the
 * container could not start at all. The rest of the 128 KiB is left to the variable's name.
 */
export const MAX_HARNESS_JOB_BYTES = 127 * 1024;

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
  if (Buffer.byteLength(JSON.stringify(whole)) <= MAX_HARNESS_JOB_BYTES || input.attachments.length === 0) return { job: whole, dropped: false };
  return { job: make([]), dropped: true };
}

/**
 * The variables a remote execution gets besides the run's own: the server's URL for an agent
 * that starts child runs (`env`; its token goes apart: the execution's Secret in a pod, the
 * stdin JSON's `api_token` for a dispatch), and its harness job if its run names a harness
 * (`secretEnv`: a pod takes it from the execution's Secret, never from the Job's spec). `note`
 * says what the run's output should tell (attachments left out).
 */
export function remoteRunEnv(context: ExecutionContext, harnesses: HarnessesConfig): { env: Record<string, string>; secretEnv: Record<string, string>; note?: string } {
  const harness = harnessJobOf(context, harnesses);
  return {
    env: context.agentApi ? { [COMMAND_ENV.apiUrl]: context.agentApi.url } : {},
    secretEnv: harness ? { [JOB_ENV.harness]: JSON.stringify(harness.job) } : {},
    ...(harness?.dropped ? { note: `[agent-runs] The run's attachments were left out of its remote execution: with them it is over ${MAX_HARNESS_JOB_BYTES} bytes (the most one variable of the pod may hold).\n` } : {}),
  };
}
