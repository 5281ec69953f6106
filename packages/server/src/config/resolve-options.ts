import { homedir, tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { isLoopbackHost } from '@agent-runs/core/contract';
import { RUN_REQUEST_MAX_BODY_BYTES } from '@agent-runs/core/contract';
import { DEFAULT_HEARTBEAT_MS } from '../http/sse-heartbeat.js';
import { DEFAULT_OUTPUT_LIMIT_BYTES } from '../runs/run-event-log.js';
import { DEFAULT_RETRY_DELAYS_MS } from '../webhooks/retry-schedule.js';
import { ServerConfigError } from '../domain/server-config-error.js';
import type { ServerOptions } from './server-options.js';

export const DEFAULT_DATA_DIR = join(homedir(), '.agent-runs', 'server');

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function agentEnv(names: string[] | undefined): string[] {
  for (const [i, name] of (names ?? []).entries()) {
    if (typeof name !== 'string' || !ENV_NAME.test(name)) {
      throw new ServerConfigError(`agentEnv[${i}] must be an environment variable name (letters, digits, _), got "${String(name)}".`);
    }
  }
  return names ?? [];
}

/** The default parent of run working directories: per user and data directory, outside it. */
function defaultWorkDir(dataDir: string | undefined): string {
  const owner = `${process.getuid?.() ?? 'user'}:${dataDir ?? 'memory'}`;
  return join(tmpdir(), `agent-runs-work-${createHash('sha256').update(owner).digest('hex').slice(0, 12)}`);
}

export type ResolvedOptions = Required<
  Omit<ServerOptions, 'harness' | 'command' | 'publicUrl' | 'dataDir' | 'log' | 'configFile' | 'scheduleTimeZone' | 'clock' | 'databaseUrl' | 'sandbox' | 'agentUser' | 'agentUidRange' | 'network'>
> &
  Pick<ServerOptions, 'sandbox' | 'agentUser' | 'agentUidRange' | 'network'> & {
  harness: ServerOptions['harness'];
  databaseUrl: string | undefined;
  configFile: string | undefined;
  scheduleTimeZone: string | undefined;
  clock: { now(): Date };
  command: string | undefined;
  publicUrl: string | undefined;
  dataDir: string | undefined;
  log: (line: string) => void;
};

function integer(name: string, value: number | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ServerConfigError(`${name} must be an integer from ${min} to ${max}, got ${String(value)}.`);
  }
  return value;
}

function allowedHosts(names: string[] | undefined): string[] {
  for (const [i, name] of (names ?? []).entries()) {
    if (typeof name !== 'string' || !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(name.trim())) {
      throw new ServerConfigError(`allowedHosts[${i}] must be a host name, optionally with :port (e.g. runs.example or runs.example:8443), got "${String(name)}".`);
    }
  }
  return (names ?? []).map((name) => name.trim());
}

/** A postgres:// URL, checked without ever echoing it (it may hold a password). */
function postgresUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !/^postgres(ql)?:$/.test(url.protocol)) {
    throw new ServerConfigError('databaseUrl (--database-url) must be a PostgreSQL URL such as postgres://user:password@db.internal:5432/agent_runs.');
  }
  return text;
}

function retryDelays(delays: number[] | undefined): number[] {
  if (delays === undefined) return [...DEFAULT_RETRY_DELAYS_MS];
  if (!Array.isArray(delays) || delays.length > 50 || delays.some((d) => !Number.isInteger(d) || d < 0 || d > 7 * 24 * 3600_000)) {
    throw new ServerConfigError('webhookRetryDelaysMs must be a list of at most 50 waits in ms, each from 0 to 604800000 (a week).');
  }
  return delays;
}

/** The sandbox options as given (the configuration file fills what they leave out); the mode checked. */
function sandboxOptions({ sandbox, agentUser, agentUidRange, network }: ServerOptions): Pick<ServerOptions, 'sandbox' | 'agentUser' | 'agentUidRange' | 'network'> {
  if (sandbox !== undefined && !['auto', 'on', 'off'].includes(sandbox)) {
    throw new ServerConfigError(`sandbox (--sandbox) must be "auto", "on" or "off", got "${String(sandbox)}".`);
  }
  return { ...(sandbox ? { sandbox } : {}), ...(agentUser ? { agentUser } : {}), ...(agentUidRange ? { agentUidRange } : {}), ...(network ? { network } : {}) };
}

/** The shortest API key a server accepts. */
export const MIN_API_KEY_CHARS = 8;

/** Defaults filled in and every option checked before anything starts. */
export function resolveOptions(options: ServerOptions): ResolvedOptions {
  const host = options.host ?? '127.0.0.1';
  const storage = options.storage ?? 'file';
  if (storage !== 'memory' && storage !== 'file') {
    throw new ServerConfigError(`storage must be "memory" or "file", got "${String(storage)}".`);
  }
  // A command line means the command executor; naming the simulated one as well is a contradiction.
  const executor = options.executor ?? (options.command?.trim() ? 'command' : 'simulated');
  if (executor === 'simulated' && options.command?.trim()) {
    throw new ServerConfigError('command (--command) is set but executor (--executor) is "simulated", which runs no command; drop the executor (a command implies "command") or the command.');
  }
  if (executor !== 'simulated' && executor !== 'command') {
    throw new ServerConfigError(`executor must be "simulated" or "command", got "${String(executor)}".`);
  }
  if (executor === 'command' && !options.command?.trim()) {
    throw new ServerConfigError('executor "command" needs command: the agent command line to run for each run.');
  }
  if (options.harness !== undefined && !['claude', 'codex', 'gemini'].includes(options.harness)) {
    throw new ServerConfigError(`harness must be "claude", "codex" or "gemini", got "${String(options.harness)}".`);
  }
  if (options.noAuth && !isLoopbackHost(host)) {
    throw new ServerConfigError(`noAuth (--no-auth) is allowed only on a loopback host (127.0.0.1, ::1, localhost), not "${host}"; configure apiKeys (--api-key) instead.`);
  }
  for (const [i, key] of (options.apiKeys ?? []).entries()) {
    if (typeof key?.key !== 'string' || key.key.trim().length < MIN_API_KEY_CHARS) {
      throw new ServerConfigError(`apiKeys[${i}].key (--api-key) must be a string of at least ${MIN_API_KEY_CHARS} characters.`);
    }
    if (typeof key.principal !== 'string' || key.principal.trim() === '') {
      throw new ServerConfigError(`apiKeys[${i}].principal must name who holds the key.`);
    }
  }
  if (options.publicUrl !== undefined && !/^https?:\/\/[^/]/i.test(options.publicUrl)) {
    throw new ServerConfigError(`publicUrl must be an http(s) URL such as https://runs.example, got "${options.publicUrl}".`);
  }
  const databaseUrl = postgresUrl(options.databaseUrl);
  if (databaseUrl && !options.noAuth && !options.apiKeys?.length) {
    throw new ServerConfigError(
      'With databaseUrl (--database-url), give the API keys every server accepts (--api-key or AGENT_RUNS_SERVER_API_KEYS): a generated key would differ from server to server.',
    );
  }
  // On PostgreSQL the data directory holds no database: only what is asked for explicitly.
  const dataDir = databaseUrl ? options.dataDir : storage === 'file' ? (options.dataDir ?? DEFAULT_DATA_DIR) : undefined;
  return {
    port: integer('port', options.port, 0, 0, 65535),
    host,
    storage,
    dataDir,
    databaseUrl,
    leaseMs: integer('leaseMs', options.leaseMs, 15_000, 100, 3_600_000),
    apiKeys: options.apiKeys ?? [],
    noAuth: options.noAuth ?? false,
    executor,
    harness: options.harness,
    command: options.command,
    commandTimeoutMs: integer('commandTimeoutMs', options.commandTimeoutMs, 30 * 60_000, 1),
    workDir: options.workDir ?? defaultWorkDir(dataDir),
    agentEnv: agentEnv(options.agentEnv),
    sharedRuns: options.sharedRuns ?? false,
    concurrency: integer('concurrency', options.concurrency, 2, 1, 1000),
    simulatedDurationMs: integer('simulatedDurationMs', options.simulatedDurationMs, 3000, 0),
    // The default fits a create with the largest attachments the contract allows.
    maxBodyBytes: integer('maxBodyBytes', options.maxBodyBytes, RUN_REQUEST_MAX_BODY_BYTES, 1),
    outputLimitBytes: integer('outputLimitBytes', options.outputLimitBytes, DEFAULT_OUTPUT_LIMIT_BYTES, 64 * 1024, 1024 ** 3),
    heartbeatMs: integer('heartbeatMs', options.heartbeatMs, DEFAULT_HEARTBEAT_MS, 10, DEFAULT_HEARTBEAT_MS),
    eventStreams: options.eventStreams ?? {},
    maxArtifactBytes: integer('maxArtifactBytes', options.maxArtifactBytes, 10 * 1024 * 1024, 1),
    maxRunArtifactBytes: integer('maxRunArtifactBytes', options.maxRunArtifactBytes, 50 * 1024 * 1024, 1),
    maxArtifactsPerExecution: integer('maxArtifactsPerExecution', options.maxArtifactsPerExecution, 100, 1, 10_000),
    downloadLinkTtlMs: integer('downloadLinkTtlMs', options.downloadLinkTtlMs, 15 * 60_000, 1, 7 * 24 * 3600_000),
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    configFile: options.configFile,
    scheduleTimeZone: options.scheduleTimeZone,
    clock: options.clock ?? { now: () => new Date() },
    schedulerIntervalMs: integer('schedulerIntervalMs', options.schedulerIntervalMs, 1000, 10, 60_000),
    allowedHosts: allowedHosts(options.allowedHosts),
    allowPrivateWebhooks: options.allowPrivateWebhooks ?? false,
    workersOnly: options.workersOnly ?? false,
    webhookRetryDelaysMs: retryDelays(options.webhookRetryDelaysMs),
    webhookPollMs: integer('webhookPollMs', options.webhookPollMs, 20, 1, 60_000),
    // Longer than an attempt may take (15 s), so a slow receiver is never attempted twice at once.
    webhookLeaseMs: integer('webhookLeaseMs', options.webhookLeaseMs, 30_000, 1000, 3_600_000),
    quiet: options.quiet ?? false,
    ...sandboxOptions(options),
    log: options.quiet ? () => {} : (options.log ?? ((line) => process.stderr.write(`${line}\n`))),
  };
}
