import { parseArgs } from 'node:util';
import { DURATION_HINT, readDuration } from '@agent-runs/core';
import { DEFAULT_HEARTBEAT_MS, DEFAULT_POLL_INTERVAL_MS } from '../context.js';
import { DEFAULT_MAX_CLIENT_STREAMS, DEFAULT_MAX_SESSION_STREAMS, DEFAULT_MAX_SESSIONS, MIN_AUTH_TOKEN_LENGTH } from '../http/http-limits.js';

export const DEFAULT_HTTP_PORT = 3333;
export const DEFAULT_HTTP_HOST = '127.0.0.1';

/** Environment variables of the MCP server itself (the API ones are core's). */
export const MCP_ENV = {
  authToken: 'AGENT_RUNS_MCP_AUTH_TOKEN',
  heartbeat: 'AGENT_RUNS_MCP_HEARTBEAT',
  pollInterval: 'AGENT_RUNS_MCP_POLL_INTERVAL',
  maxSessions: 'AGENT_RUNS_MCP_MAX_SESSIONS',
  maxClientStreams: 'AGENT_RUNS_MCP_MAX_CLIENT_STREAMS',
  maxSessionStreams: 'AGENT_RUNS_MCP_MAX_SESSION_STREAMS',
  /** Set by the server for the MCP server a harness run gets: the run it speaks for. */
  runId: 'AGENT_RUNS_RUN_ID',
} as const;

export interface CliOptions {
  mode: 'stdio' | 'http';
  host: string;
  port: number;
  authToken: string | undefined;
  allowedHosts: string[];
  allowedOrigins: string[];
  /** HTTP sessions held at once. */
  maxSessions: number;
  /** HTTP requests open at once from one client address. */
  maxClientStreams: number;
  /** HTTP requests open at once in one session. */
  maxSessionStreams: number;
  readOnly: boolean;
  baseURL: string | undefined;
  apiKey: string | undefined;
  heartbeatMs: number;
  pollIntervalMs: number;
  /** The run this server speaks for (`AGENT_RUNS_RUN_ID`), if it was started for one. */
  runId: string | undefined;
}

export type ParsedCommand = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; options: CliOptions };

/** A mistake in the flags: printed as one line with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A value from its flag or, failing that, its environment variable, with the name to blame in a message. */
function fromFlagOrEnv(
  flagValue: string | undefined,
  flag: string,
  env: Record<string, string | undefined>,
  variable: string,
): { value: string; what: string } | undefined {
  if (flagValue !== undefined) return { value: flagValue, what: flag };
  const value = env[variable];
  return value === undefined ? undefined : { value, what: variable };
}

/**
 * The bearer token, if one is set. An empty or short one is a mistake, not "no auth": an
 * unset variable in a script would otherwise open the server to anyone who reaches it.
 */
function authToken(given: { value: string; what: string } | undefined): string | undefined {
  if (!given) return undefined;
  const token = given.value.trim();
  if (token.length < MIN_AUTH_TOKEN_LENGTH) {
    const got = token === '' ? 'it is empty' : `got ${token.length}`;
    throw new UsageError(
      `${given.what} must be at least ${MIN_AUTH_TOKEN_LENGTH} characters (${got}); use a random secret such as the output of "openssl rand -hex 32", or leave it unset for no token`,
    );
  }
  return token;
}

function duration(given: { value: string; what: string } | undefined, fallback: number): number {
  if (given === undefined || given.value.trim() === '') return fallback;
  const { value, what } = given;
  const { ms, problem } = readDuration(value);
  if (problem !== undefined) throw new UsageError(`${what} ${problem}`);
  if (ms <= 0) throw new UsageError(`${what} must be ${DURATION_HINT}, greater than zero, got "${value}"`);
  return ms;
}

function wholeNumber(given: { value: string; what: string } | undefined, fallback: number): number {
  if (given === undefined || given.value.trim() === '') return fallback;
  const n = Number(given.value);
  if (!/^\d+$/.test(given.value.trim()) || n < 1 || n > 100_000) {
    throw new UsageError(`${given.what} must be a whole number from 1 to 100000, got "${given.value}"`);
  }
  return n;
}

function port(value: string | undefined): number {
  if (value === undefined) return DEFAULT_HTTP_PORT;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${value}"`);
  return n;
}

export function parseCommand(argv: string[], env: Record<string, string | undefined> = process.env): ParsedCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        http: { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        'auth-token': { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        'allowed-origin': { type: 'string', multiple: true },
        'max-sessions': { type: 'string' },
        'max-client-streams': { type: 'string' },
        'max-session-streams': { type: 'string' },
        'read-only': { type: 'boolean' },
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        heartbeat: { type: 'string' },
        'poll-interval': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    }));
  } catch (error) {
    // parseArgs names the flag; drop its advice about `--` which does not apply here.
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const http = values.http ?? false;
  for (const flag of ['port', 'host', 'auth-token', 'allowed-host', 'allowed-origin', 'max-sessions', 'max-client-streams', 'max-session-streams'] as const) {
    if (!http && values[flag] !== undefined) throw new UsageError(`--${flag} applies only with --http`);
  }
  return {
    kind: 'run',
    options: {
      mode: http ? 'http' : 'stdio',
      host: values.host ?? DEFAULT_HTTP_HOST,
      port: port(values.port),
      authToken: http ? authToken(fromFlagOrEnv(values['auth-token'], '--auth-token', env, MCP_ENV.authToken)) : undefined,
      allowedHosts: values['allowed-host'] ?? [],
      allowedOrigins: values['allowed-origin'] ?? [],
      maxSessions: wholeNumber(fromFlagOrEnv(values['max-sessions'], '--max-sessions', env, MCP_ENV.maxSessions), DEFAULT_MAX_SESSIONS),
      maxClientStreams: wholeNumber(
        fromFlagOrEnv(values['max-client-streams'], '--max-client-streams', env, MCP_ENV.maxClientStreams),
        DEFAULT_MAX_CLIENT_STREAMS,
      ),
      maxSessionStreams: wholeNumber(
        fromFlagOrEnv(values['max-session-streams'], '--max-session-streams', env, MCP_ENV.maxSessionStreams),
        DEFAULT_MAX_SESSION_STREAMS,
      ),
      readOnly: values['read-only'] ?? false,
      baseURL: values['base-url'],
      apiKey: values['api-key'],
      heartbeatMs: duration(fromFlagOrEnv(values.heartbeat, '--heartbeat', env, MCP_ENV.heartbeat), DEFAULT_HEARTBEAT_MS),
      pollIntervalMs: duration(
        fromFlagOrEnv(values['poll-interval'], '--poll-interval', env, MCP_ENV.pollInterval),
        DEFAULT_POLL_INTERVAL_MS,
      ),
      runId: env[MCP_ENV.runId]?.trim() || undefined,
    },
  };
}
