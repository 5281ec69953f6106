import { DEFAULT_BASE_URL, isLoopbackHost, parseBaseURL } from '../connection/base-url.js';
import { apiKeyFromEnv, ENV, envSetting } from '../connection/env-settings.js';
import { ClientConfigError } from '../errors/request-validation-error.js';
import { levelledLogger, parseLogLevel, type Logger } from './logger.js';
import type { ClientOptions } from './options.js';

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
/** 64 MiB: a page of the largest runs, many times over. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface ResolvedClientConfig {
  baseURL: string;
  /** `scheme://host:port` of baseURL. */
  origin: string;
  apiKey: string | undefined;
  timeout: number;
  maxRetries: number;
  maxRetryDelay: number;
  /** Bytes of one answer's body read at most. */
  maxResponseSize: number;
  defaultHeaders: Record<string, string>;
  logger: Logger;
  /** Whether debug lines are wanted; saves building them otherwise. */
  debug: boolean;
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
  const rawBase = options.baseURL ?? envSetting(env, ENV.baseURL) ?? DEFAULT_BASE_URL;
  const url = parseBaseURL(rawBase);
  const apiKey = options.apiKey ?? apiKeyFromEnv(env);
  const allowInsecure = options.allowInsecureHttp ?? /^(1|true|yes)$/i.test(envSetting(env, ENV.allowInsecureHttp) ?? '');
  if (url.protocol === 'http:' && apiKey && !isLoopbackHost(url.hostname) && !allowInsecure) {
    throw new ClientConfigError(
      `Refusing to send the API key over plain http to ${url.host}: use https, or, if this network is trusted, allow it with allowInsecureHttp: true or AGENT_RUNS_ALLOW_INSECURE_HTTP=1.`,
    );
  }
  const level = options.logLevel ?? parseLogLevel(envSetting(env, ENV.logLevel)) ?? 'warn';
  return {
    baseURL: url.toString().replace(/\/+$/, ''),
    origin: url.origin,
    apiKey,
    timeout: nonNegative('timeout', options.timeout, DEFAULT_TIMEOUT_MS),
    maxRetries: Math.floor(nonNegative('maxRetries', options.maxRetries, DEFAULT_MAX_RETRIES)),
    maxRetryDelay: nonNegative('maxRetryDelay', options.maxRetryDelay, DEFAULT_MAX_RETRY_DELAY_MS),
    maxResponseSize: nonNegative('maxResponseSize', options.maxResponseSize, DEFAULT_MAX_RESPONSE_BYTES),
    defaultHeaders: { ...options.defaultHeaders },
    logger: levelledLogger(level, options.logger ?? console),
    debug: level === 'debug',
  };
}
