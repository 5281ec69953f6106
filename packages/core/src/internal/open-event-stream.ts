import type { Dispatcher } from 'undici';
import { parseErrorBody } from '../contract/error-body.js';
import { makeAPIError } from '../errors/api-error-factory.js';
import type { ResponseHeaders } from '../errors/api-error.js';
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from '../errors/connection-errors.js';
import { API_KEY_VARIABLES } from '../connection/env-settings.js';
import type { ResolvedClientConfig } from './client-config.js';
import { buildURL } from './http-request.js';
import { readErrorText } from './read-error-text.js';

export interface EventStreamRequest {
  /** Relative to the base URL, e.g. `/agent/runs/abc/events`. */
  path: string;
  /** Sent as `Last-Event-ID` so the server resumes after it. */
  lastEventId?: number | undefined;
  signal: AbortSignal;
}

/** An open `text/event-stream` answer; `close()` drops the connection. */
export interface OpenedEventStream {
  body: AsyncIterable<Uint8Array>;
  close(): void;
}

export type OpenEventStream = (req: EventStreamRequest) => Promise<OpenedEventStream>;

/**
 * Opens a long-lived GET for Server-Sent Events. The answer's headers must come within
 * the client's timeout; the body has no time limit (the caller watches for silence).
 * A non-2xx answer is thrown as the same APIError a buffered request would throw.
 */
export async function openEventStream(
  config: ResolvedClientConfig,
  dispatcher: () => Promise<Dispatcher>,
  baseHeaders: Record<string, string>,
  req: EventStreamRequest,
): Promise<OpenedEventStream> {
  const url = buildURL(config.baseURL, req.path);
  const headers: Record<string, string> = { ...baseHeaders, accept: 'text/event-stream', 'cache-control': 'no-cache' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  if (req.lastEventId !== undefined && req.lastEventId > 0) headers['last-event-id'] = String(req.lastEventId);
  let response: Dispatcher.ResponseData;
  try {
    response = await (await dispatcher()).request({
      origin: config.origin,
      path: url.slice(config.origin.length),
      method: 'GET',
      headers,
      signal: req.signal,
      headersTimeout: config.timeout,
      bodyTimeout: 0,
    });
  } catch (error) {
    if (req.signal.aborted) throw new APIUserAbortError(undefined, { cause: error });
    const code = (error as { code?: string }).code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT') {
      throw new APIConnectionTimeoutError(`No answer from GET ${url} within ${config.timeout} ms.`, { cause: error });
    }
    throw new APIConnectionError(`Could not reach ${config.origin} (${code ?? (error as Error).message}): check the base URL and that the server is running.`, {
      cause: error,
    });
  }
  const resHeaders = response.headers as ResponseHeaders;
  if (response.statusCode >= 300) {
    // The stream's body has no time limit; its error's does.
    const text = await readErrorText(response.body, config.timeout);
    const body = parseErrorBody(text);
    throw makeAPIError({
      status: response.statusCode,
      body,
      rawText: body ? undefined : text,
      headers: resHeaders,
      request: { method: 'GET', url },
      apiKeyVariables: API_KEY_VARIABLES,
    });
  }
  return {
    body: response.body as AsyncIterable<Uint8Array>,
    close: () => response.body.destroy(),
  };
}
