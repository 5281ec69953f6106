import { parseArgs } from 'node:util';
import { DURATION_HINT, parseDuration } from '@agent-runs/core';
import { DEFAULT_HEARTBEAT_MS, DEFAULT_POLL_INTERVAL_MS } from '../context.js';

export const DEFAULT_HTTP_PORT = 3333;
export const DEFAULT_HTTP_HOST = '127.0.0.1';

/** Environment variables of the MCP server itself (the API ones are core's). */
export const MCP_ENV = {
  authToken: 'AGENT_RUNS_MCP_AUTH_TOKEN',
  heartbeat: 'AGENT_RUNS_MCP_HEARTBEAT',
  pollInterval: 'AGENT_RUNS_MCP_POLL_INTERVAL',
} as const;

export interface CliOptions {
  mode: 'stdio' | 'http';
  host: string;
  port: number;
  authToken: string | undefined;
  allowedHosts: string[];
  allowedOrigins: string[];
  readOnly: boolean;
  baseURL: string | undefined;
  apiKey: string | undefined;
  heartbeatMs: number;
  pollIntervalMs: number;
}

export type ParsedCommand = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; options: CliOptions };

/** A mistake in the flags: printed as one line with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

function duration(value: string | undefined, what: string, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) throw new UsageError(`${what} must be ${DURATION_HINT}, got "${value}"`);
  return ms;
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
  for (const flag of ['port', 'host', 'auth-token', 'allowed-host', 'allowed-origin'] as const) {
    if (!http && values[flag] !== undefined) throw new UsageError(`--${flag} applies only with --http`);
  }
  return {
    kind: 'run',
    options: {
      mode: http ? 'http' : 'stdio',
      host: values.host ?? DEFAULT_HTTP_HOST,
      port: port(values.port),
      authToken: values['auth-token'] ?? (env[MCP_ENV.authToken]?.trim() || undefined),
      allowedHosts: values['allowed-host'] ?? [],
      allowedOrigins: values['allowed-origin'] ?? [],
      readOnly: values['read-only'] ?? false,
      baseURL: values['base-url'],
      apiKey: values['api-key'],
      heartbeatMs: duration(values.heartbeat ?? env[MCP_ENV.heartbeat], '--heartbeat', DEFAULT_HEARTBEAT_MS),
      pollIntervalMs: duration(values['poll-interval'] ?? env[MCP_ENV.pollInterval], '--poll-interval', DEFAULT_POLL_INTERVAL_MS),
    },
  };
}
