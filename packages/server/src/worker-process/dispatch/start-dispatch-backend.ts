import { accessSync, constants } from 'node:fs';
import { runPolicyFor } from '../../config/sandbox-config.js';
import { SecretMask } from '../../domain/secret-mask.js';
import type { ServerConfig } from '../../domain/server-config.js';
import { ServerConfigError } from '../../domain/server-config-error.js';
import { BudgetedExecutor } from '../../executors/budgeted-executor.js';
import { EnvironmentRegistry } from '../../catalog/environment-registry.js';
import { MaskedExecutor } from '../../executors/masked-executor.js';
import { JobRelay } from '../kubernetes/job-relay.js';
import type { WorkerBackend } from '../worker-backend.js';
import { DEFAULT_DISPATCH_TIMEOUT_MS, DEFAULT_SILENCE_TIMEOUT_MS, WORKER_ENV, type DispatchBackendFlags, type WorkerOptions } from '../worker-flags.js';
import { DispatchBackend } from './dispatch-backend.js';
import { DispatchedRuns } from './dispatched-runs.js';
import { operatorEnv } from './operator-command.js';

/** `--backend command`: each execution handed to the operator's dispatch command, its entrypoint reporting to the listener started here. */
export async function startDispatchBackend(options: WorkerOptions, flags: DispatchBackendFlags, config: ServerConfig, workDir: string, log: (line: string) => void): Promise<WorkerBackend> {
  const file = config.dispatch;
  const dispatchCommand = flags.dispatchCommand ?? file?.command;
  if (!dispatchCommand) throw new ServerConfigError(`--backend command needs --dispatch-command <path> (or ${WORKER_ENV.dispatchCommand}, or dispatch.command in the configuration file): the program that hands each run to your scheduler.`);
  const cancelCommand = flags.cancelCommand ?? file?.cancelCommand;
  for (const [what, path] of [['--dispatch-command', dispatchCommand], ['--cancel-command', cancelCommand]] as const) {
    if (path === undefined) continue;
    try {
      accessSync(path, constants.X_OK);
    } catch (error) {
      throw new ServerConfigError(`${what}: "${path}" is not a program this worker may run (${(error as NodeJS.ErrnoException).code ?? 'not executable'}).`);
    }
  }
  const everywhere = flags.jobListen.host === '0.0.0.0' || flags.jobListen.host === '::';
  if (everywhere && !flags.jobUrl) throw new ServerConfigError(`--job-url is required when --job-listen is on every address (${flags.jobListen.host}): the URL the dispatched entrypoints reach this worker at.`);
  const relay = new JobRelay(options.token);
  const bound = await relay.listen(flags.jobListen);
  const relayUrl = flags.jobUrl ?? `http://${bound.host.includes(':') ? `[${bound.host}]` : bound.host}:${bound.port}`;
  log(`Runs are handed to ${dispatchCommand}; their entrypoints report to ${relayUrl}.`);
  const policy = runPolicyFor(config);
  const backend = new DispatchBackend({
    relay,
    relayUrl,
    workerToken: options.token,
    dispatchCommand,
    cancelCommand,
    commandTimeoutMs: flags.dispatchTimeoutMs ?? file?.timeoutMs ?? DEFAULT_DISPATCH_TIMEOUT_MS,
    silenceTimeoutMs: flags.silenceTimeoutMs ?? file?.silenceTimeoutMs ?? DEFAULT_SILENCE_TIMEOUT_MS,
    command: options.executor.command!,
    harnesses: config.harnesses,
    environments: new EnvironmentRegistry(config),
    secretsOf: (run) => policy(run).env,
    env: operatorEnv(process.env, WORKER_ENV.token, [options.token, ...config.secrets.values()]),
    runs: new DispatchedRuns(workDir),
    log,
  });
  // As on the server: the run's budget held, the named secrets masked in what comes back.
  const executor = new MaskedExecutor(new BudgetedExecutor(backend), new SecretMask(config.secrets.values()));
  // Every environment of the configuration file: its checkout and setup are made by the remote entrypoint, its secrets go on stdin.
  const environments = config.environments.map((env) => env.id);
  return { executor, harnesses: [], environments, workDirs: false, reattach: () => backend.reattach(), close: () => relay.close() };
}
