import { isHarnessName } from '../../domain/harness-config.js';
import { NamedSecrets } from '../../domain/named-secrets.js';
import { HARNESS_DRIVERS } from '../../executors/harness/drivers-by-name.js';
import { HarnessExecutor } from '../../executors/harness/harness-executor.js';
import { COMMAND_ENV } from '../../executors/command-env.js';
import { HarnessSetup } from '../../executors/harness/harness-setup.js';
import { DEFAULT_JOB_DEADLINE_SECONDS } from './job-spec.js';
import type { Execution, ExecutionContext } from '../../executors/run-executor.js';
import { fromWire, WireFormatError } from '../../workers/worker-wire.js';
import type { WorkerAssignment } from '../../workers/worker-protocol.js';
import type { HarnessJob } from './job-harness.js';

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** The harness job the worker wrote (`AGENT_RUNS_JOB_HARNESS`), checked; throws naming what is wrong. */
export function parseHarnessJob(text: string): HarnessJob {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('AGENT_RUNS_JOB_HARNESS is not JSON: it is written by agent-runs-worker, as the run\'s harness execution.');
  }
  const job = json as Partial<HarnessJob> | null;
  if (!job || typeof job !== 'object') throw new Error('AGENT_RUNS_JOB_HARNESS must be an object.');
  if (!isHarnessName(job.harness)) throw new Error(`AGENT_RUNS_JOB_HARNESS.harness must be claude, codex or gemini, got ${JSON.stringify(job.harness)}.`);
  const settings = job.settings;
  if (!settings || !isStrings(settings.args) || !isStrings(settings.env) || (settings.command !== undefined && typeof settings.command !== 'string')) {
    throw new Error('AGENT_RUNS_JOB_HARNESS.settings must hold args and env (lists of strings) and, optionally, command.');
  }
  if (!job.assignment || typeof job.assignment !== 'object') throw new Error('AGENT_RUNS_JOB_HARNESS.assignment must be an object.');
  return job as HarnessJob;
}

export interface PodHarnessOptions {
  job: HarnessJob;
  /** The pod's environment, less what only the entrypoint reads: the CLI's key and base URL come from here. */
  env: NodeJS.ProcessEnv;
  /** The entrypoint's own directory: the run's working, protocol and harness state directories go under it. */
  workRoot: string;
  /** The run's API token, from its own Secret (never the Job's spec), for an agent that starts child runs. */
  apiToken?: string | undefined;
  sinks: Pick<ExecutionContext, 'onOutput' | 'onHarnessState'>;
}

/**
 * Runs a harness CLI in a Job's pod (or where a dispatch command sent the entrypoint) through
 * the server's own HarnessExecutor, as a process-backend worker runs it: the same driver,
 * arguments, stream parser, usage tally, report file and artifacts. The pod is the sandbox;
 * the CLI gets the variables the worker's `harnesses.<name>.env` names, and the harness's
 * key variables, from the pod's environment (the operator's Secrets).
 */
export function startHarnessInPod(o: PodHarnessOptions): Execution {
  const { job } = o;
  let wire: ReturnType<typeof fromWire>;
  try {
    wire = fromWire(job.assignment as WorkerAssignment);
  } catch (error) {
    if (error instanceof WireFormatError) throw new Error(`AGENT_RUNS_JOB_HARNESS.assignment: ${error.message}`);
    throw error;
  }
  const driver = HARNESS_DRIVERS.get(job.harness)!;
  const passed = [...new Set([...job.settings.env, ...driver.keyVariables])];
  const setup = new HarnessSetup({ settings: { [job.harness]: { ...job.settings, env: passed, models: [] } } }, new NamedSecrets(), [], o.env);
  const apiUrl = o.env[COMMAND_ENV.apiUrl];
  const deadline = wire.run.agentConfig.budget?.max_duration_seconds ?? DEFAULT_JOB_DEADLINE_SECONDS;
  const executor = new HarnessExecutor(job.harness, { workRoot: o.workRoot, timeoutMs: deadline * 1000, setup });
  // Each execution is a new pod, which holds none of the harness's state (its sessions): a
  // follow-up carries the conversation so far in its prompt (harnessPrompt) rather than
  // resuming a session the CLI would not find here.
  const { harnessSessionId: _notHere, ...run } = wire.run;
  return executor.start({
    run,
    input: wire.input,
    onOutput: o.sinks.onOutput,
    ...(o.sinks.onHarnessState ? { onHarnessState: o.sinks.onHarnessState } : {}),
    ...(apiUrl && o.apiToken ? { agentApi: { url: apiUrl, token: o.apiToken } } : {}),
  });
}
