import type { HarnessesConfig, HarnessName, HarnessSettings } from '../../domain/harness-config.js';
import { harnessOf } from '../../executors/harness/harness-router.js';
import type { ExecutionContext } from '../../executors/run-executor.js';
import type { WorkerAssignment } from '../../workers/worker-protocol.js';
import { toWire } from '../../workers/worker-wire.js';
import { COMMAND_ENV } from '../../executors/command-env.js';
import { JOB_ENV, MAX_POD_VARIABLE_BYTES } from './job-limits.js';
import { jobWorkspaceOf } from './job-workspace.js';
import type { EnvironmentConfig } from '../../domain/server-config.js';

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
  if (Buffer.byteLength(JSON.stringify(whole)) <= MAX_POD_VARIABLE_BYTES || input.attachments.length === 0) return { job: whole, dropped: false };
  return { job: make([]), dropped: true };
}

/**
 * The variables a remote execution gets besides the run's own: the server's URL for an agent
 * that starts child runs (`env`; its token goes apart: the execution's Secret in a pod, the
 * stdin JSON's `api_token` for a dispatch), its harness job if its run names a harness, and
 * its workspace (`job-workspace.ts`) if its environment has a checkout or setup to make
 * (`secretEnv`: a pod takes them from the execution's Secret, never from the Job's spec).
 * `note` says what the run's output should tell (attachments left out); `problem`, why a pod
 * could not start it (a workspace larger than one of its variables may hold; stdin, for a
 * dispatch, has no such bound).
 */
export function remoteRunEnv(
  context: ExecutionContext,
  harnesses: HarnessesConfig,
  environment?: EnvironmentConfig,
): { env: Record<string, string>; secretEnv: Record<string, string>; note?: string; problem?: string } {
  const harness = harnessJobOf(context, harnesses);
  const workspace = jobWorkspaceOf(context, environment);
  const workspaceText = workspace ? JSON.stringify(workspace) : undefined;
  const size = workspaceText ? Buffer.byteLength(workspaceText) : 0;
  return {
    env: context.agentApi ? { [COMMAND_ENV.apiUrl]: context.agentApi.url } : {},
    secretEnv: { ...(harness ? { [JOB_ENV.harness]: JSON.stringify(harness.job) } : {}), ...(workspaceText ? { [JOB_ENV.workspace]: workspaceText } : {}) },
    ...(harness?.dropped ? { note: `[agent-runs] The run's attachments were left out of its remote execution: with them it is over ${MAX_POD_VARIABLE_BYTES} bytes (the most one variable of the pod may hold).\n` } : {}),
    ...(size > MAX_POD_VARIABLE_BYTES
      ? { problem: `agent_config.environment_id: environment "${workspace!.environment ?? ''}" (its repositories and setup commands) is ${size} bytes as JSON, over the ${MAX_POD_VARIABLE_BYTES} bytes one variable of the pod may hold; shorten its setup commands (a script in the image can hold them).` }
      : {}),
  };
}
