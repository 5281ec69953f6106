import type { Dispatcher } from 'undici';
import type { KnownRunSourceType } from '../contract/run-source-type.js';
import type { Logger, LogLevel } from './logger.js';

export interface ClientOptions {
  /** Base address ending in `/api/v1`. Default: AGENT_RUNS_BASE_URL, OZ_API_BASE_URL, then the public service. */
  baseURL?: string | undefined;
  /** Bearer API key. Default: AGENT_RUNS_API_KEY, then WARP_API_KEY. */
  apiKey?: string | undefined;
  /** Milliseconds for one attempt of a request, body included. Default 60 000. */
  timeout?: number | undefined;
  /** Retries after the first attempt for retryable failures. Default 2. */
  maxRetries?: number | undefined;
  /** Longest wait a `Retry-After` may impose before a retry, in ms. Default 60 000. */
  maxRetryDelay?: number | undefined;
  /** Bytes of one response body read at most; a longer one fails with APIResponseValidationError. Default 64 MiB. */
  maxResponseSize?: number | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** Allow sending the key over plain http to a host that is not loopback. Default: AGENT_RUNS_ALLOW_INSECURE_HTTP=1, else false. */
  allowInsecureHttp?: boolean | undefined;
  /** Which kind of caller this is; the local server records it as the run's source. Default API. */
  source?: KnownRunSourceType | undefined;
  /** Appended to the User-Agent, e.g. `my-tool/1.2`. */
  userAgent?: string | undefined;
  /** Where debug lines go (the key is always redacted). Default: console, level from AGENT_RUNS_LOG. */
  logger?: Logger | undefined;
  logLevel?: LogLevel | undefined;
  /** An undici dispatcher (proxy agent, custom pool). Default: a keep-alive Agent owned by the client. */
  dispatcher?: Dispatcher | undefined;
  /** Environment to read defaults from. Default process.env. */
  env?: Record<string, string | undefined> | undefined;
}

/** Overrides for one call. */
export interface RequestOptions {
  timeout?: number | undefined;
  maxRetries?: number | undefined;
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  /** For creates: the key that makes retries safe. Default: a fresh UUID per call. */
  idempotencyKey?: string | undefined;
}
