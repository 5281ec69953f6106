import { DURATION_HINT } from '@agent-runs/core/contract';
import { RUN_REQUEST_MAX_BODY_BYTES } from '@agent-runs/core/contract';
import type { ApiKey } from '../http/api-key-auth.js';
import { ServerConfigError } from '../domain/server-config-error.js';
import type { ServerOptions } from './server-options.js';
import { isLoopbackHost } from '@agent-runs/core/contract';
import { MIN_API_KEY_CHARS } from './resolve-options.js';
import { EXECUTOR_FLAGS, executorHelpRows, readExecutorArgs, type ExecutorEnv } from './executor-args.js';
import { durationFrom, helpTable, integerFrom, parseFlags, listFrom, truthy, type HelpRow } from './flag-values.js';

export const DEFAULT_CLI_PORT = 4280;

/** Each flag's environment variable; a flag wins over its variable. */
export const SERVER_ENV = {
  port: 'AGENT_RUNS_SERVER_PORT',
  host: 'AGENT_RUNS_SERVER_HOST',
  dataDir: 'AGENT_RUNS_SERVER_DATA_DIR',
  apiKeys: 'AGENT_RUNS_SERVER_API_KEYS',
  noAuth: 'AGENT_RUNS_SERVER_NO_AUTH',
  executor: 'AGENT_RUNS_SERVER_EXECUTOR',
  command: 'AGENT_RUNS_SERVER_COMMAND',
  commandTimeout: 'AGENT_RUNS_SERVER_COMMAND_TIMEOUT',
  workDir: 'AGENT_RUNS_SERVER_WORK_DIR',
  concurrency: 'AGENT_RUNS_SERVER_CONCURRENCY',
  simulatedDuration: 'AGENT_RUNS_SERVER_SIMULATED_DURATION',
  maxBodyBytes: 'AGENT_RUNS_SERVER_MAX_BODY_BYTES',
  outputLimitBytes: 'AGENT_RUNS_SERVER_OUTPUT_LIMIT_BYTES',
  publicUrl: 'AGENT_RUNS_SERVER_PUBLIC_URL',
  configFile: 'AGENT_RUNS_SERVER_CONFIG',
  allowedHosts: 'AGENT_RUNS_SERVER_ALLOWED_HOSTS',
  agentEnv: 'AGENT_RUNS_SERVER_AGENT_ENV',
  sharedRuns: 'AGENT_RUNS_SERVER_SHARED_RUNS',
  databaseUrl: 'AGENT_RUNS_SERVER_DATABASE_URL',
  lease: 'AGENT_RUNS_SERVER_LEASE',
  allowPrivateWebhooks: 'AGENT_RUNS_SERVER_ALLOW_PRIVATE_WEBHOOKS',
  workersOnly: 'AGENT_RUNS_SERVER_WORKERS_ONLY',
  sandbox: 'AGENT_RUNS_SERVER_SANDBOX',
  agentUser: 'AGENT_RUNS_SERVER_AGENT_USER',
  agentUidRange: 'AGENT_RUNS_SERVER_AGENT_UID_RANGE',
  network: 'AGENT_RUNS_SERVER_NETWORK',
  harness: 'AGENT_RUNS_SERVER_HARNESS',
} as const;

/** The executor flags' variables, under the server's prefix. */
const SERVER_EXECUTOR_ENV: ExecutorEnv = {
  executor: SERVER_ENV.executor,
  command: SERVER_ENV.command,
  'command-timeout': SERVER_ENV.commandTimeout,
  'work-dir': SERVER_ENV.workDir,
  'agent-env': SERVER_ENV.agentEnv,
  sandbox: SERVER_ENV.sandbox,
  'agent-user': SERVER_ENV.agentUser,
  network: SERVER_ENV.network,
  harness: SERVER_ENV.harness,
  'simulated-duration': SERVER_ENV.simulatedDuration,
  config: SERVER_ENV.configFile,
};
const EXECUTOR_ROWS = executorHelpRows(SERVER_EXECUTOR_ENV, 'server');

// [flag, description, environment variable]
const HELP_ROWS: HelpRow[] = [
  ['--port <n>', `Port (0 = any free one). Default ${DEFAULT_CLI_PORT}.`, SERVER_ENV.port],
  ['--host <address>', 'Address to bind. Default 127.0.0.1.', SERVER_ENV.host],
  ['--data-dir <dir>', 'SQLite database and run working directories. Default ~/.agent-runs/server.', SERVER_ENV.dataDir],
  ['--memory', 'Keep runs in memory only (lost on exit).', ''],
  ['--database-url <url>', 'Keep everything in this PostgreSQL database (postgres://user:password@host:5432/db) instead of SQLite; any number of servers may share it.', SERVER_ENV.databaseUrl],
  ['--lease <duration>', 'With --database-url: how long a server holds its runs without renewing; when it dies, the others fail its runs within about 4/3 of this. Default 15s.', SERVER_ENV.lease],
  ['--api-key <[principal=]key>', 'Accept this key; repeat for several. The principal becomes the creator of its runs. The variable takes a comma-separated list. Without any, a key is generated and printed once.', SERVER_ENV.apiKeys],
  ['--no-auth', 'Accept requests without a key (loopback hosts only).', `${SERVER_ENV.noAuth}=1`],
  EXECUTOR_ROWS['executor'],
  EXECUTOR_ROWS['command'],
  EXECUTOR_ROWS['command-timeout'],
  EXECUTOR_ROWS['work-dir'],
  EXECUTOR_ROWS['agent-env'],
  EXECUTOR_ROWS['sandbox'],
  EXECUTOR_ROWS['agent-user'],
  ['--agent-uid-range <first-last>', "Where the server runs as root: each principal's agents (command and harness) run as a uid of their own from this range (e.g. 61000-61999), kept apart even without the sandbox.", SERVER_ENV.agentUidRange],
  EXECUTOR_ROWS['network'],
  ['--concurrency <n>', 'Runs executed at once. Default 2.', SERVER_ENV.concurrency],
  EXECUTOR_ROWS['simulated-duration'],
  ['--max-body-bytes <n>', `Largest request body. Default ${RUN_REQUEST_MAX_BODY_BYTES} (a create with the most attachments allowed).`, SERVER_ENV.maxBodyBytes],
  ['--output-limit-bytes <n>', 'Agent output kept per run; the oldest goes first. Default 8388608.', SERVER_ENV.outputLimitBytes],
  ['--public-url <url>', 'Address for session links behind a proxy; its host is accepted in the Host header.', SERVER_ENV.publicUrl],
  ['--allowed-host <name[:port]>', 'Also answer requests addressed to this name (besides loopback names and --public-url); repeat for several. The variable takes a comma-separated list.', SERVER_ENV.allowedHosts],
  EXECUTOR_ROWS['config'],
  ['--shared-runs', 'Let every key read and cancel every run (by default a key sees only its own principal\'s runs).', `${SERVER_ENV.sharedRuns}=1`],
  ['--workers-only', 'Run no agent in this process: self-hosted workers take every run, also those that name no worker_host.', `${SERVER_ENV.workersOnly}=1`],
  ['--allow-private-webhooks', 'Let webhooks go to loopback, private and link-local addresses, and over http (development and tests only).', `${SERVER_ENV.allowPrivateWebhooks}=1`],
  EXECUTOR_ROWS['harness'],
  ['--quiet', 'Print nothing.', ''],
  ['--help', 'Show this help.', ''],
];

export const SERVER_HELP = `agent-runs-server: the Agent Runs API on this machine

Usage: agent-runs-server [options]

${helpTable(HELP_ROWS)}

A flag wins over its environment variable.
Durations: ${DURATION_HINT}.
Simulated runs follow a directive in the prompt, e.g. [simulate fail 300ms]: succeed, fail, error, block or hang, and a duration.
`;

/** What may name a principal before `=`; base64 keys hold `+`, `/` and trailing `=`, which no name does. */
const PRINCIPAL = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/**
 * `alice=key` → { principal: alice, key }; a bare key is named after its position. Split
 * only where the part before the first `=` is a name and a key follows, so a key that
 * holds `=` (base64 padding) is taken whole.
 */
function apiKeyFrom(text: string, index: number): ApiKey {
  const at = text.indexOf('=');
  const key = text.slice(at + 1);
  if (at > 0 && PRINCIPAL.test(text.slice(0, at)) && key !== '' && !key.startsWith('=')) return { principal: text.slice(0, at), key };
  return { principal: `key-${index + 1}`, key: text };
}

/**
 * The key and no-auth rules of resolveOptions, said in the terms the user typed (the flag or
 * the variable), not the option names of the programmatic API. The key itself is never echoed.
 */
function checkAuthFlags(keys: ApiKey[], keyFlag: string, noAuthFlag: string | undefined, host: string | undefined): void {
  for (const [i, { key }] of keys.entries()) {
    if (key.trim().length < MIN_API_KEY_CHARS) {
      const which = keys.length > 1 ? `the ${ordinal(i + 1)} key` : 'the key';
      throw new ServerConfigError(`${keyFlag}: ${which} is ${key.trim().length} characters long; an API key must have at least ${MIN_API_KEY_CHARS}.`);
    }
  }
  if (noAuthFlag !== undefined && host !== undefined && !isLoopbackHost(host)) {
    throw new ServerConfigError(`${noAuthFlag} works only on a loopback --host (127.0.0.1, ::1, localhost), not "${host}"; give --api-key instead.`);
  }
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

export type ParsedServerArgs = { help: true } | { help: false; options: ServerOptions };

/** argv and environment → server options; throws ServerConfigError naming the flag. */
export function parseServerArgs(argv: string[], env: Record<string, string | undefined> = process.env): ParsedServerArgs {
  const values = parseFlags(argv, {
    ...EXECUTOR_FLAGS,
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    memory: { type: 'boolean' },
    'database-url': { type: 'string' },
    lease: { type: 'string' },
    'api-key': { type: 'string', multiple: true },
    'no-auth': { type: 'boolean' },
    concurrency: { type: 'string' },
    'max-body-bytes': { type: 'string' },
    'output-limit-bytes': { type: 'string' },
    'public-url': { type: 'string' },
    'allowed-host': { type: 'string', multiple: true },
    'shared-runs': { type: 'boolean' },
    'allow-private-webhooks': { type: 'boolean' },
    'workers-only': { type: 'boolean' },
    'agent-uid-range': { type: 'string' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { help: true };
  const keyTexts = values['api-key'] ?? (env[SERVER_ENV.apiKeys] ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  const apiKeys = keyTexts.map(apiKeyFrom);
  const noAuth = values['no-auth'] ?? truthy(env[SERVER_ENV.noAuth]);
  checkAuthFlags(apiKeys, values['api-key'] ? '--api-key' : SERVER_ENV.apiKeys, noAuth ? (values['no-auth'] ? '--no-auth' : SERVER_ENV.noAuth) : undefined, values.host ?? env[SERVER_ENV.host]);
  const options: ServerOptions = {
    port: integerFrom('--port', values.port ?? env[SERVER_ENV.port]) ?? DEFAULT_CLI_PORT,
    host: values.host ?? env[SERVER_ENV.host] ?? '127.0.0.1',
    storage: values.memory ? 'memory' : 'file',
    apiKeys,
    noAuth,
    quiet: values.quiet ?? false,
  };
  const set = <K extends keyof ServerOptions>(key: K, value: ServerOptions[K] | undefined) => {
    if (value !== undefined && value !== '') options[key] = value;
  };
  Object.assign(options, readExecutorArgs(values, env, SERVER_EXECUTOR_ENV));
  set('dataDir', values['data-dir'] ?? env[SERVER_ENV.dataDir]);
  set('databaseUrl', values['database-url'] ?? env[SERVER_ENV.databaseUrl]);
  set('leaseMs', durationFrom('--lease', values.lease ?? env[SERVER_ENV.lease]));
  set('concurrency', integerFrom('--concurrency', values.concurrency ?? env[SERVER_ENV.concurrency]));
  set('maxBodyBytes', integerFrom('--max-body-bytes', values['max-body-bytes'] ?? env[SERVER_ENV.maxBodyBytes]));
  set('outputLimitBytes', integerFrom('--output-limit-bytes', values['output-limit-bytes'] ?? env[SERVER_ENV.outputLimitBytes]));
  set('publicUrl', values['public-url'] ?? env[SERVER_ENV.publicUrl]);
  set('allowedHosts', values['allowed-host'] ?? listFrom(env[SERVER_ENV.allowedHosts]));
  set('agentUidRange', values['agent-uid-range'] ?? env[SERVER_ENV.agentUidRange]);
  if (values['shared-runs'] ?? truthy(env[SERVER_ENV.sharedRuns])) options.sharedRuns = true;
  if (values['allow-private-webhooks'] ?? truthy(env[SERVER_ENV.allowPrivateWebhooks])) options.allowPrivateWebhooks = true;
  if (values['workers-only'] ?? truthy(env[SERVER_ENV.workersOnly])) options.workersOnly = true;
  return { help: false, options };
}
