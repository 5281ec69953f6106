import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { DURATION_HINT, isLoopbackHost, WORKER_HOST_PATTERN } from '@agent-runs/core/contract';
import { EXECUTOR_FLAGS, executorHelpRows, readExecutorArgs, type ExecutorArgs, type ExecutorEnv } from '../config/executor-args.js';
import { durationFrom, helpTable, integerFrom, parseFlags, truthy, type HelpRow } from '../config/flag-values.js';
import { ServerConfigError } from '../domain/server-config-error.js';
import { MAX_WORKER_CAPACITY } from '../workers/worker-protocol.js';

/** Each flag's environment variable; a flag wins over its variable. */
export const WORKER_ENV = {
  server: 'AGENT_RUNS_WORKER_SERVER',
  token: 'AGENT_RUNS_WORKER_TOKEN',
  tokenFile: 'AGENT_RUNS_WORKER_TOKEN_FILE',
  workerHost: 'AGENT_RUNS_WORKER_HOST',
  concurrency: 'AGENT_RUNS_WORKER_CONCURRENCY',
  drainTimeout: 'AGENT_RUNS_WORKER_DRAIN_TIMEOUT',
  listen: 'AGENT_RUNS_WORKER_LISTEN',
  instanceId: 'AGENT_RUNS_WORKER_INSTANCE_ID',
  keepWorkDirs: 'AGENT_RUNS_WORKER_KEEP_WORK_DIRS',
  quiet: 'AGENT_RUNS_WORKER_QUIET',
  executor: 'AGENT_RUNS_WORKER_EXECUTOR',
  command: 'AGENT_RUNS_WORKER_COMMAND',
  commandTimeout: 'AGENT_RUNS_WORKER_COMMAND_TIMEOUT',
  workDir: 'AGENT_RUNS_WORKER_WORK_DIR',
  agentEnv: 'AGENT_RUNS_WORKER_AGENT_ENV',
  sandbox: 'AGENT_RUNS_WORKER_SANDBOX',
  agentUser: 'AGENT_RUNS_WORKER_AGENT_USER',
  network: 'AGENT_RUNS_WORKER_NETWORK',
  harness: 'AGENT_RUNS_WORKER_HARNESS',
  simulatedDuration: 'AGENT_RUNS_WORKER_SIMULATED_DURATION',
  configFile: 'AGENT_RUNS_WORKER_CONFIG',
  backend: 'AGENT_RUNS_WORKER_BACKEND',
  unschedulableTimeout: 'AGENT_RUNS_WORKER_UNSCHEDULABLE_TIMEOUT',
  jobListen: 'AGENT_RUNS_WORKER_JOB_LISTEN',
  jobUrl: 'AGENT_RUNS_WORKER_JOB_URL',
  dispatchCommand: 'AGENT_RUNS_WORKER_DISPATCH_COMMAND',
  cancelCommand: 'AGENT_RUNS_WORKER_CANCEL_COMMAND',
  dispatchTimeout: 'AGENT_RUNS_WORKER_DISPATCH_TIMEOUT',
  silenceTimeout: 'AGENT_RUNS_WORKER_SILENCE_TIMEOUT',
} as const;

const WORKER_EXECUTOR_ENV: ExecutorEnv = {
  executor: WORKER_ENV.executor,
  command: WORKER_ENV.command,
  'command-timeout': WORKER_ENV.commandTimeout,
  'work-dir': WORKER_ENV.workDir,
  'agent-env': WORKER_ENV.agentEnv,
  sandbox: WORKER_ENV.sandbox,
  'agent-user': WORKER_ENV.agentUser,
  network: WORKER_ENV.network,
  harness: WORKER_ENV.harness,
  'simulated-duration': WORKER_ENV.simulatedDuration,
  config: WORKER_ENV.configFile,
};

export const DEFAULT_WORKER_CONCURRENCY = 2;
export const DEFAULT_DRAIN_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_KEEP_WORK_DIRS = 50;
export const DEFAULT_UNSCHEDULABLE_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_DISPATCH_TIMEOUT_MS = 60_000;
export const DEFAULT_SILENCE_TIMEOUT_MS = 10 * 60_000;
export const WORKER_BACKENDS = ['process', 'kubernetes', 'command'] as const;
const MAX_KEEP_WORK_DIRS = 100_000;

const EXECUTOR_ROWS = executorHelpRows(WORKER_EXECUTOR_ENV, 'worker');
const HELP_ROWS: HelpRow[] = [
  ['--server <url>', 'The Agent Runs server to take runs from: https, or http to a loopback host only. Repeat for servers sharing one database: when one stops answering, the worker goes on through the next (the variable takes a comma-separated list).', WORKER_ENV.server],
  ['--token-file <path>', `A file holding the worker token (else the variable ${WORKER_ENV.token}; never a flag, which anyone on the machine could read in ps).`, WORKER_ENV.tokenFile],
  ['--worker-host <id>', 'The worker_host runs name to be sent here (1-63 letters, digits, ".", "_" or "-"). Required.', WORKER_ENV.workerHost],
  ['--concurrency <n>', `Runs executed at once. Default ${DEFAULT_WORKER_CONCURRENCY}.`, WORKER_ENV.concurrency],
  [
    '--config <file>',
    "Configuration file in the server's format (JSON or YAML): this worker's own environments, named secrets, harnesses and sandbox settings; keys and secrets are read here, never received from the server.",
    WORKER_ENV.configFile,
  ],
  EXECUTOR_ROWS['executor'],
  EXECUTOR_ROWS['command'],
  EXECUTOR_ROWS['command-timeout'],
  EXECUTOR_ROWS['harness'],
  EXECUTOR_ROWS['sandbox'],
  EXECUTOR_ROWS['agent-user'],
  EXECUTOR_ROWS['network'],
  EXECUTOR_ROWS['work-dir'],
  [
    '--keep-work-dirs <n>',
    `The working directories of ended runs kept for their follow-ups (the most recently ended); older ones are removed, and a follow-up to such a run makes its directory again from the environment's checkout and the run's patches. Default ${DEFAULT_KEEP_WORK_DIRS}.`,
    WORKER_ENV.keepWorkDirs,
  ],
  EXECUTOR_ROWS['agent-env'],
  EXECUTOR_ROWS['simulated-duration'],
  [
    '--backend <name>',
    'process (default): each run\'s agent is a process of this machine. kubernetes: each run is a Kubernetes Job (the kubeconfig of KUBECONFIG or ~/.kube/config, else the pod\'s service account), its pod from the configuration file\'s kubernetes: section, running --command (a run naming a harness: that harness\'s CLI, as the harnesses: section says). command: each run is handed to --dispatch-command (Nomad, ECS, ssh…), whose remote side runs agent-runs-job-entrypoint --stdin, which runs --command (or the run\'s harness).',
    WORKER_ENV.backend,
  ],
  ['--unschedulable-timeout <duration>', 'kubernetes: a run whose pod cannot be scheduled for this long ends FAILED, saying why. Default 5m.', WORKER_ENV.unschedulableTimeout],
  ['--job-listen <host:port>', 'kubernetes, command: where the Jobs\' pods (the dispatched entrypoints) report the agent\'s output and end to this worker (each with a token good for its run alone). Required with those backends.', WORKER_ENV.jobListen],
  ['--job-url <url>', 'kubernetes, command: the URL the pods (the dispatched entrypoints) reach --job-listen at (e.g. http://$(POD_IP):9466). Default http://<--job-listen>.', WORKER_ENV.jobUrl],
  [
    '--dispatch-command <path>',
    'command: the program run for each execution of a run, the run as JSON on its stdin (where to report, the run\'s token, --command, its variables, its environment\'s secrets: stdin only, never its argv or environment). Exit 0: dispatched; else the run ends FAILED naming its exit and its stderr\'s last lines. Else the configuration file\'s dispatch.command.',
    WORKER_ENV.dispatchCommand,
  ],
  ['--cancel-command <path>', 'command: run with the run id as its argument when a dispatched run is stopped here (a cancel, a lost lease, the shutdown); the entrypoint also learns of it at its next report or heartbeat. Else dispatch.cancel_command.', WORKER_ENV.cancelCommand],
  ['--dispatch-timeout <duration>', 'command: how long the dispatch and cancel commands may run before they are killed (the run then ends FAILED). Default 1m.', WORKER_ENV.dispatchTimeout],
  ['--silence-timeout <duration>', 'command: a dispatched run whose entrypoint is not heard from (output, or its heartbeat every 5 s) for this long ends FAILED. Default 10m.', WORKER_ENV.silenceTimeout],
  ['--drain-timeout <duration>', 'On SIGTERM or SIGINT: take no new run, let running ones finish for this long, then stop them (a second signal stops them at once). Default 10m.', WORKER_ENV.drainTimeout],
  ['--listen <host:port>', 'Serve GET /readyz (200 once connected and not draining) and GET /metrics (Prometheus) here.', WORKER_ENV.listen],
  ['--instance-id <id>', 'This process among the worker host\'s. Default the host name, the pid and a few random characters; with --backend kubernetes or command, the host name alone (in a pod, its name), so that a restarted worker follows its Jobs (dispatched runs) again.', WORKER_ENV.instanceId],
  ['--quiet', 'Print nothing.', `${WORKER_ENV.quiet}=1`],
  ['--help', 'Show this help.', ''],
];

export const WORKER_HELP = `agent-runs-worker: run agents on this machine for an Agent Runs server

Usage: agent-runs-worker --server <url> --worker-host <id> [options]

${helpTable(HELP_ROWS)}

The worker connects out to the server (nothing connects in), with the worker token from
${WORKER_ENV.token} or --token-file. A flag wins over its environment variable.
Durations: ${DURATION_HINT}.
`;

export interface WorkerOptions {
  /** The servers' root URLs, without a trailing slash or `/api/v1`: the first, then the next when one stops answering. */
  servers: string[];
  token: string;
  workerHost: string;
  concurrency: number;
  drainTimeoutMs: number;
  listen: { host: string; port: number } | undefined;
  instanceId: string;
  /** How many ended runs' working directories are kept. */
  keepWorkDirs: number;
  quiet: boolean;
  executor: ExecutorArgs;
  backend: (typeof WORKER_BACKENDS)[number];
  /** `--backend kubernetes`: how the Jobs report back, and the unschedulable bound. */
  kubernetes: KubernetesBackendOptions | undefined;
  /** `--backend command`: the operator's commands and how the dispatched entrypoints report back. */
  dispatch: DispatchBackendFlags | undefined;
}

export interface DispatchBackendFlags {
  jobListen: { host: string; port: number };
  jobUrl: string | undefined;
  /** The flag's or variable's; else the configuration file's (checked when it is read). */
  dispatchCommand: string | undefined;
  cancelCommand: string | undefined;
  dispatchTimeoutMs: number | undefined;
  silenceTimeoutMs: number | undefined;
}

export interface KubernetesBackendOptions {
  unschedulableTimeoutMs: number;
  jobListen: { host: string; port: number };
  /** What the pods reach the listener at; default from the bound address. */
  jobUrl: string | undefined;
}

export type ParsedWorkerArgs = { help: true } | { help: false; options: WorkerOptions };

/** The server's URL: https anywhere, http only to this machine (the token would cross the network in clear). */
function serverUrl(text: string | undefined): string {
  if (text === undefined || text.trim() === '') throw new ServerConfigError(`--server is required: the URL of the Agent Runs server (or ${WORKER_ENV.server}).`);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ServerConfigError(`--server must be a URL such as https://runs.example, got "${text}".`);
  }
  if (url.username || url.password) throw new ServerConfigError('--server must not hold credentials; give the token in its variable or --token-file.');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ServerConfigError(`--server must be an https URL, got "${url.protocol}".`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ServerConfigError(`--server may use http only to a loopback host (127.0.0.1, ::1, localhost), not "${url.hostname}": the token would cross the network in clear; use https.`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}`;
}

/** The token: the file wins over the variable; never echoed. */
function workerToken(file: string | undefined, env: Record<string, string | undefined>): string {
  let token: string | undefined;
  if (file !== undefined && file !== '') {
    try {
      token = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new ServerConfigError(`--token-file: cannot read "${file}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
    if (!token) throw new ServerConfigError(`--token-file: "${file}" is empty.`);
  } else token = env[WORKER_ENV.token]?.trim();
  if (!token) throw new ServerConfigError(`No worker token: set ${WORKER_ENV.token} or pass --token-file <path>.`);
  if (/\s/.test(token)) throw new ServerConfigError(`The worker token (${file ? '--token-file' : WORKER_ENV.token}) must be one word, without spaces or line breaks.`);
  return token;
}

function listenAddress(text: string | undefined, flag = '--listen'): WorkerOptions['listen'] {
  if (text === undefined || text === '') return undefined;
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) throw new ServerConfigError(`${flag} must be host:port (e.g. 127.0.0.1:9464 or [::1]:9464), got "${text}".`);
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

/**
 * The default instance id: what tells this process apart from another on the same worker
 * host. With the Kubernetes backend it is the host name alone (in a pod, the pod's name), so
 * that the worker's container, restarted in its pod, is the same instance and follows its
 * Jobs again; a process backend's agents die with it, so it needs no such continuity.
 */
function defaultInstanceId(stable: boolean): string {
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, stable ? 64 : 40) || 'worker';
  return stable ? host : `${host}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

function backendOf(text: string | undefined): WorkerOptions['backend'] {
  const value = text?.trim() || 'process';
  if (!(WORKER_BACKENDS as readonly string[]).includes(value)) throw new ServerConfigError(`--backend must be process, kubernetes or command, got "${value}".`);
  return value as WorkerOptions['backend'];
}

function jobUrlOf(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ServerConfigError(`--job-url must be a URL such as http://10.0.0.7:9466, got "${text}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ServerConfigError(`--job-url must be an http or https URL, got "${url.protocol}".`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** An operator's command: a path to a program (run without a shell, so no word of it is split or expanded). */
function pathOf(flag: string, text: string | undefined): string | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  if (!value.includes('/')) throw new ServerConfigError(`${flag} must be a path to a program (e.g. /usr/local/bin/dispatch-run), got "${value.slice(0, 100)}": it is run as it is, without a shell or a PATH lookup.`);
  return value;
}

function positive(flag: string, ms: number | undefined): number | undefined {
  if (ms !== undefined && ms <= 0) throw new ServerConfigError(`${flag} must be longer than 0.`);
  return ms;
}

/** argv and environment → worker options; throws ServerConfigError naming the flag. */
export function parseWorkerArgs(argv: string[], env: Record<string, string | undefined> = process.env): ParsedWorkerArgs {
  const values = parseFlags(argv, {
    ...EXECUTOR_FLAGS,
    server: { type: 'string', multiple: true },
    'token-file': { type: 'string' },
    'worker-host': { type: 'string' },
    concurrency: { type: 'string' },
    'drain-timeout': { type: 'string' },
    listen: { type: 'string' },
    'instance-id': { type: 'string' },
    'keep-work-dirs': { type: 'string' },
    backend: { type: 'string' },
    'unschedulable-timeout': { type: 'string' },
    'job-listen': { type: 'string' },
    'job-url': { type: 'string' },
    'dispatch-command': { type: 'string' },
    'cancel-command': { type: 'string' },
    'dispatch-timeout': { type: 'string' },
    'silence-timeout': { type: 'string' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { help: true };
  const given = values.server ?? env[WORKER_ENV.server]?.split(',').filter((s) => s.trim() !== '');
  const servers = given?.length ? [...new Set(given.map(serverUrl))] : [serverUrl(undefined)];
  const token = workerToken(values['token-file'] ?? env[WORKER_ENV.tokenFile], env);
  const workerHost = (values['worker-host'] ?? env[WORKER_ENV.workerHost])?.trim();
  if (!workerHost) throw new ServerConfigError(`--worker-host is required: the worker_host runs name to be sent to this worker (or ${WORKER_ENV.workerHost}).`);
  if (!WORKER_HOST_PATTERN.test(workerHost)) throw new ServerConfigError(`--worker-host must be 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit, got "${workerHost}".`);
  const concurrency = integerFrom('--concurrency', values.concurrency ?? env[WORKER_ENV.concurrency]) ?? DEFAULT_WORKER_CONCURRENCY;
  if (concurrency < 1 || concurrency > MAX_WORKER_CAPACITY) throw new ServerConfigError(`--concurrency must be from 1 to ${MAX_WORKER_CAPACITY}, got ${concurrency}.`);
  const backend = backendOf(values.backend ?? env[WORKER_ENV.backend]);
  const executor = readExecutorArgs(values, env, WORKER_EXECUTOR_ENV);
  let kubernetes: KubernetesBackendOptions | undefined;
  if (backend === 'kubernetes') {
    const jobListen = listenAddress(values['job-listen'] ?? env[WORKER_ENV.jobListen], '--job-listen');
    if (!jobListen) throw new ServerConfigError(`--backend kubernetes needs --job-listen <host:port> (or ${WORKER_ENV.jobListen}): where the Jobs' pods report back to this worker.`);
    if (!executor.command) throw new ServerConfigError(`--backend kubernetes needs --command (or ${WORKER_ENV.command}): the agent command each Job's pod runs.`);
    if (!executor.configFile) throw new ServerConfigError(`--backend kubernetes needs --config (or ${WORKER_ENV.configFile}) with a kubernetes: section naming at least the image.`);
    kubernetes = {
      jobListen,
      jobUrl: jobUrlOf(values['job-url'] ?? env[WORKER_ENV.jobUrl]),
      unschedulableTimeoutMs: durationFrom('--unschedulable-timeout', values['unschedulable-timeout'] ?? env[WORKER_ENV.unschedulableTimeout]) ?? DEFAULT_UNSCHEDULABLE_TIMEOUT_MS,
    };
  }
  let dispatch: DispatchBackendFlags | undefined;
  if (backend === 'command') {
    const jobListen = listenAddress(values['job-listen'] ?? env[WORKER_ENV.jobListen], '--job-listen');
    if (!jobListen) throw new ServerConfigError(`--backend command needs --job-listen <host:port> (or ${WORKER_ENV.jobListen}): where the dispatched entrypoints report back to this worker.`);
    if (!executor.command) throw new ServerConfigError(`--backend command needs --command (or ${WORKER_ENV.command}): the agent command the dispatched entrypoint runs.`);
    dispatch = {
      jobListen,
      jobUrl: jobUrlOf(values['job-url'] ?? env[WORKER_ENV.jobUrl]),
      dispatchCommand: pathOf('--dispatch-command', values['dispatch-command'] ?? env[WORKER_ENV.dispatchCommand]),
      cancelCommand: pathOf('--cancel-command', values['cancel-command'] ?? env[WORKER_ENV.cancelCommand]),
      dispatchTimeoutMs: positive('--dispatch-timeout', durationFrom('--dispatch-timeout', values['dispatch-timeout'] ?? env[WORKER_ENV.dispatchTimeout])),
      silenceTimeoutMs: positive('--silence-timeout', durationFrom('--silence-timeout', values['silence-timeout'] ?? env[WORKER_ENV.silenceTimeout])),
    };
  }
  // A worker whose runs outlive it (Jobs, dispatched runs) is the same instance after a restart, to follow them again.
  const instanceId = (values['instance-id'] ?? env[WORKER_ENV.instanceId])?.trim() || defaultInstanceId(backend !== 'process');
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(instanceId)) throw new ServerConfigError(`--instance-id must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit, got "${instanceId}".`);
  const keepWorkDirs = integerFrom('--keep-work-dirs', values['keep-work-dirs'] ?? env[WORKER_ENV.keepWorkDirs]) ?? DEFAULT_KEEP_WORK_DIRS;
  if (keepWorkDirs > MAX_KEEP_WORK_DIRS) throw new ServerConfigError(`--keep-work-dirs must be from 0 to ${MAX_KEEP_WORK_DIRS}, got ${keepWorkDirs}.`);
  return {
    help: false,
    options: {
      servers,
      token,
      workerHost,
      concurrency,
      drainTimeoutMs: durationFrom('--drain-timeout', values['drain-timeout'] ?? env[WORKER_ENV.drainTimeout]) ?? DEFAULT_DRAIN_TIMEOUT_MS,
      listen: listenAddress(values.listen ?? env[WORKER_ENV.listen]),
      instanceId,
      keepWorkDirs,
      quiet: values.quiet ?? truthy(env[WORKER_ENV.quiet]),
      executor,
      backend,
      kubernetes,
      dispatch,
    },
  };
}
