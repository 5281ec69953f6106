import type { EnvironmentConfig } from '../../domain/server-config.js';
import type { ExecutionContext } from '../../executors/run-executor.js';
import { DEFAULT_JOB_DEADLINE_SECONDS } from './job-spec.js';

/**
 * A run's working directory as the worker hands it to a Job's pod (a variable from the run's
 * own Secret, never the Job's spec) or to a dispatched entrypoint (in the stdin JSON): the
 * environment's repositories and setup commands, which the entrypoint prepares with the
 * server's own `prepareWorkspace`, and, for a follow-up (a new pod, which has none of the
 * earlier directory), how many of the run's `changes.patch` files it then fetches from the
 * worker and applies (they can be far larger than one variable holds).
 */
export interface JobWorkspace {
  /** The environment's id, named in a failed setup's message; absent when only patches are applied. */
  environment?: string;
  repos: { url: string; path: string; ref?: string }[];
  setup_commands: string[];
  /** How long one step may run, in seconds: the run's wall-time cap, as the Job's deadline is. */
  step_timeout_seconds: number;
  /** A follow-up's directory made again: who ran the last execution, who restores it, and the patches to fetch (`GET /runs/{run}/patches/{index}`). */
  restore?: { ran_on: string; here: string; patches: number };
}

/** Whether an environment has a checkout or setup to make (one with only secrets or a network policy has none). */
export const preparesWorkspace = (env: EnvironmentConfig | undefined): env is EnvironmentConfig => env !== undefined && (env.repos.length > 0 || env.setupCommands.length > 0);

/**
 * The workspace of an execution, or undefined when there is nothing to make (the agent runs
 * in the entrypoint's working directory, as before): the run's environment has repositories
 * or setup commands, or a follow-up carries patches to apply.
 */
export function jobWorkspaceOf(context: ExecutionContext, environment: EnvironmentConfig | undefined): JobWorkspace | undefined {
  const { run, input, restore } = context;
  const prepared = preparesWorkspace(environment);
  const patches = input.number > 1 ? (restore?.patches.length ?? 0) : 0;
  if (!prepared && patches === 0) return undefined;
  return {
    ...(prepared ? { environment: environment.id } : {}),
    repos: prepared ? environment.repos.map((r) => ({ url: r.url, path: r.path, ...(r.ref ? { ref: r.ref } : {}) })) : [],
    setup_commands: prepared ? environment.setupCommands : [],
    step_timeout_seconds: run.agentConfig.budget?.max_duration_seconds ?? DEFAULT_JOB_DEADLINE_SECONDS,
    // A follow-up's pod never has the earlier directory: it is made again whenever the server says what from.
    ...(input.number > 1 && restore ? { restore: { ran_on: restore.ranOn, here: restore.here, patches } } : {}),
  };
}
