import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { parseErrorBody } from '../contract/error-body.js';
import { formatIssues } from '../contract/format-issues.js';
import type { ResponseHeaders } from '../errors/api-error.js';
import { makeAPIError } from '../errors/api-error-factory.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIResponseValidationError,
  APIUserAbortError,
} from '../errors/connection-errors.js';
import type { WithResponse } from './api-promise.js';
import { API_KEY_VARIABLES } from '../connection/env-settings.js';
import type { ResolvedClientConfig } from './client-config.js';
import { redactHeaders } from './logger.js';
import type { RequestOptions } from './options.js';
import { AbortReason, dispatchBuffered, ResponseTooLarge, type BufferedRequest, type BufferedResponse } from './dispatch-buffered.js';
import { failedBeforeSending, isRetryableStatus, mayRepeatAfterLostAnswer } from './retry-policy.js';
import { backoffDelay, retryAfterMs } from './retry-timing.js';
import { sleep } from './sleep.js';

export type HTTPMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type QueryScalar = string | number | boolean;
/** A query value: a scalar, a list (the name repeats) or a string map (`name[key]=value`). */
export type QueryValue = QueryScalar | readonly QueryScalar[] | Readonly<Record<string, QueryScalar>> | null | undefined;

export interface HTTPRequest<T> extends RequestOptions {
  method: HTTPMethod;
  /** Relative to the base URL, e.g. `/agent/runs`. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  /** Parses a 2xx body; without it the JSON is returned as it came. */
  schema?: z.ZodType<T> | undefined;
  /** Send an Idempotency-Key (fixed for all attempts), making a POST safe to retry. */
  idempotent?: boolean | undefined;
}

/** Appends `query` to a URL; arrays repeat the name (`state=A&state=B`), maps use brackets (`metadata[team]=core`). */
export function buildURL(baseURL: string, path: string, query?: Record<string, QueryValue>): string {
  const url = `${baseURL}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) params.append(name, String(item));
    } else if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) params.append(`${name}[${key}]`, String(item));
    } else {
      params.append(name, String(value));
    }
  }
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

/** What a failed attempt (no answer) is to the caller: an abort, a timeout or no connection. */
function attemptFailure(error: unknown, url: string, req: BufferedRequest, timeout: number, signal: AbortSignal | undefined): Error {
  if (signal?.aborted) return new APIUserAbortError(undefined, { cause: error });
  if (error instanceof ResponseTooLarge) {
    return new APIResponseValidationError(
      `${error.status} from ${req.method} ${url} has a body longer than ${error.limit} bytes, more than this client reads (maxResponseSize).`,
      error.status,
      { cause: error },
    );
  }
  if (error instanceof AbortReason && error.kind === 'timeout') {
    return new APIConnectionTimeoutError(`No answer from ${req.method} ${url} within ${timeout} ms.`, { cause: error });
  }
  const code = (error as { code?: string }).code;
  return new APIConnectionError(
    `Could not reach ${req.origin} (${code ?? (error as Error).message}): check the base URL and that the server is running.`,
    { cause: error },
  );
}

/** The system or undici error code under a connection error, e.g. ECONNREFUSED. */
function connectionCode(error: APIConnectionError): string | undefined {
  return (error.cause as { code?: string } | undefined)?.code;
}

/** The client's headers with its key, made once per client: undici only reads them. */
const PLAIN_HEADERS = new WeakMap<Record<string, string>, Record<string, string>>();

function plainHeaders(config: ResolvedClientConfig, baseHeaders: Record<string, string>): Record<string, string> {
  let headers = PLAIN_HEADERS.get(baseHeaders);
  if (!headers) {
    headers = config.apiKey ? { ...baseHeaders, authorization: `Bearer ${config.apiKey}` } : { ...baseHeaders };
    PLAIN_HEADERS.set(baseHeaders, headers);
  }
  return headers;
}

/**
 * Sends a request with retries: 408, 409, 429 and 5xx are retried with backoff and
 * `Retry-After`, unless the body says `retryable: false`. A connection that failed before
 * sending is retried for every method; a lost answer (reset, timeout) only for GET, PUT,
 * DELETE and requests with an Idempotency-Key.
 */
export async function sendRequest<T>(
  config: ResolvedClientConfig,
  dispatcher: () => Dispatcher | Promise<Dispatcher>,
  baseHeaders: Record<string, string>,
  req: HTTPRequest<T>,
): Promise<WithResponse<T>> {
  const url = buildURL(config.baseURL, req.path, req.query);
  const origin = config.origin;
  const path = url.slice(origin.length);
  // A request with nothing of its own (most reads) sends the client's headers as they are.
  const own = req.headers !== undefined || req.body !== undefined || req.idempotent;
  const headers: Record<string, string> = own ? { ...baseHeaders, ...req.headers } : plainHeaders(config, baseHeaders);
  if (own && config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  let body: string | null = null;
  if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers['content-type'] = 'application/json';
  }
  if (req.idempotent) headers['idempotency-key'] = req.idempotencyKey ?? randomUUID();
  const maxRetries = req.maxRetries ?? config.maxRetries;
  const timeout = req.timeout ?? config.timeout;
  const log = config.logger;
  const target = { method: req.method, url };
  const mayRepeat = () =>
    mayRepeatAfterLostAnswer(
      req.method,
      Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key'),
    );

  for (let attempts = 1; ; attempts++) {
    const retriesLeft = maxRetries - (attempts - 1);
    if (config.debug) log.debug(`agent-runs: ${req.method} ${url} (attempt ${attempts})`, redactHeaders(headers));
    let outcome: BufferedResponse;
    const sent: BufferedRequest = { origin, path, method: req.method, headers, body };
    // The client's dispatcher is a promise only until its first request: no await after that.
    const ready = dispatcher();
    const through = ready instanceof Promise ? await ready : ready;
    try {
      outcome = await dispatchBuffered(through, sent, timeout, req.signal, config.maxResponseSize);
    } catch (caught) {
      const error = attemptFailure(caught, url, sent, timeout, req.signal);
      if (error instanceof APIConnectionError && retriesLeft > 0 && (mayRepeat() || failedBeforeSending(connectionCode(error)))) {
        const delay = backoffDelay(attempts - 1);
        log.debug(`agent-runs: ${error.message} Retrying in ${delay} ms.`);
        await sleep(delay, req.signal);
        continue;
      }
      throw error;
    }

    const { status, headers: resHeaders, text } = outcome;
    if (status >= 400) {
      const errorBody = parseErrorBody(text);
      if (retriesLeft > 0 && isRetryableStatus(status, errorBody)) {
        const asked = retryAfterMs(resHeaders);
        const delay = asked !== undefined ? Math.min(asked, config.maxRetryDelay) : backoffDelay(attempts - 1);
        log.debug(`agent-runs: ${status} from ${req.method} ${url}; retrying in ${delay} ms.`);
        await sleep(delay, req.signal);
        continue;
      }
      throw makeAPIError({
        status,
        body: errorBody,
        rawText: errorBody ? undefined : text,
        headers: resHeaders,
        request: target,
        apiKeyVariables: API_KEY_VARIABLES,
      });
    }

    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch (error) {
      throw new APIResponseValidationError(
        `${status} from ${req.method} ${url} is not valid JSON: ${text.slice(0, 120)}`,
        status,
        { cause: error },
      );
    }
    let data = json as T;
    if (req.schema) {
      const parsed = req.schema.safeParse(json);
      if (!parsed.success) {
        throw new APIResponseValidationError(
          `${status} from ${req.method} ${url} does not match the contract: ${formatIssues(parsed.error, 'response').join('; ')}`,
          status,
          { cause: parsed.error },
        );
      }
      data = parsed.data;
    }
    return { data, response: { status, headers: resHeaders, url, attempts } };
  }
}
