import { ClientConfigError } from '../errors/request-validation-error.js';
import { levelledLogger, parseLogLevel, type Logger } from './logger.js';
import type { ClientOptions } from './options.js';

export const DEFAULT_BASE_URL = 'https://app.warp.dev/api/v1';
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

/** The environment variables read, in order of precedence. */
export const ENV = {
  baseURL: ['AGENT_RUNS_BASE_URL', 'OZ_API_BASE_URL'],
  apiKey: ['AGENT_RUNS_API_KEY', 'WARP_API_KEY'],
  logLevel: ['AGENT_RUNS_LOG'],
  allowInsecureHttp: ['AGENT_RUNS_ALLOW_INSECURE_HTTP'],
} as const;

export const API_KEY_VARIABLES = ENV.apiKey.join(' (or ') + ')';

export interface ResolvedClientConfig {
  baseURL: string;
  /** `scheme://host:port` of baseURL. */
  origin: string;
  apiKey: string | undefined;
  timeout: number;
  maxRetries: number;
  maxRetryDelay: number;
  defaultHeaders: Record<string, string>;
  logger: Logger;
  /** Whether debug lines are wanted; saves building them otherwise. */
  debug: boolean;
}

function firstEnv(env: Record<string, string | undefined>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** True for localhost, 127.0.0.0/8 and ::1: the only hosts a key may reach over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new ClientConfigError(`${name} must be a non-negative number, got ${String(value)}.`);
  }
  return value;
}

/** Options and environment merged into what the client uses; throws on unusable settings. */
export function resolveClientConfig(options: ClientOptions): ResolvedClientConfig {
  const env = options.env ?? process.env;
  const rawBase = options.baseURL ?? firstEnv(env, ENV.baseURL) ?? DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(rawBase);
  } catch {
    throw new ClientConfigError(`baseURL must be an absolute http(s) URL such as ${DEFAULT_BASE_URL}, got "${rawBase}".`);
  }
  if (url.username || url.password) {
    throw new ClientConfigError('baseURL must not carry credentials: pass the key as apiKey (or AGENT_RUNS_API_KEY).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ClientConfigError(`baseURL must use https: or http:, got "${url.protocol}".`);
  }
  const apiKey = options.apiKey ?? firstEnv(env, ENV.apiKey);
  const allowInsecure = options.allowInsecureHttp ?? /^(1|true|yes)$/i.test(firstEnv(env, ENV.allowInsecureHttp) ?? '');
  if (url.protocol === 'http:' && apiKey && !isLoopbackHost(url.hostname) && !allowInsecure) {
    throw new ClientConfigError(
      `Refusing to send the API key over plain http to ${url.host}: use https, or, if this network is trusted, allow it with allowInsecureHttp: true or AGENT_RUNS_ALLOW_INSECURE_HTTP=1.`,
    );
  }
  const level = options.logLevel ?? parseLogLevel(firstEnv(env, ENV.logLevel)) ?? 'warn';
  return {
    baseURL: url.toString().replace(/\/+$/, ''),
    origin: url.origin,
    apiKey,
    timeout: nonNegative('timeout', options.timeout, DEFAULT_TIMEOUT_MS),
    maxRetries: Math.floor(nonNegative('maxRetries', options.maxRetries, DEFAULT_MAX_RETRIES)),
    maxRetryDelay: nonNegative('maxRetryDelay', options.maxRetryDelay, DEFAULT_MAX_RETRY_DELAY_MS),
    defaultHeaders: { ...options.defaultHeaders },
    logger: levelledLogger(level, options.logger ?? console),
    debug: level === 'debug',
  };
}
