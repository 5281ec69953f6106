import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIResponseValidationError,
  AuthenticationError,
  ClientConfigError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
} from '@agent-runs/core';
import { InputError } from './input-error.js';

export interface ErrorContext {
  /** The base URL in use, to say where the action tried to go. */
  baseURL: string;
  /** Never shown: removed from any text that might carry it. */
  apiKey?: string | undefined;
}

/** What the server said, in its own words, when it said anything (one closing period, not two). */
function serverSays(error: APIError): string {
  const said = (error.detail ?? error.title)?.trim().replace(/\.+$/, '');
  return said ? ` The server said: ${said}.` : '';
}

/** A request URL as people read it: percent-escapes decoded once, so `%2520` shows as the `%20` that was sent. */
function readableUrl(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

/**
 * One paragraph for the step's failure: what went wrong and what to check, in the
 * workflow's terms (input names, secrets). Never a stack, never the key.
 */
export function errorMessage(error: unknown, context: ErrorContext): string {
  const message = describe(error, context.baseURL);
  return context.apiKey ? message.split(context.apiKey).join('***') : message;
}

function describe(error: unknown, baseURL: string): string {
  if (error instanceof InputError) return error.message;
  if (error instanceof AuthenticationError) {
    return `The API key was rejected by ${baseURL} (401).${serverSays(error)} Check the "api-key" input: the secret must exist in this repository or organization (workflows from forks get no secrets) and must be a key for this service.`;
  }
  if (error instanceof PermissionDeniedError) {
    return `The API key may not do this (403).${serverSays(error)} Check the key's team and that it may use the "environment", "skill" and "mcp-servers" you named.`;
  }
  if (error instanceof NotFoundError) {
    return `Not found (404) at ${error.request.method} ${readableUrl(error.request.url)}.${serverSays(error)} Check "base-url": it must be the API's address ending in /api/v1.`;
  }
  if (error instanceof RateLimitError) {
    const after = error.retryAfterMs;
    return `Rate limited (429) by ${baseURL}${after !== undefined ? `; it asked to wait ${Math.ceil(after / 1000)}s` : ''}. Re-run the job later, or start fewer runs at once.`;
  }
  if (error instanceof APIError && error.status >= 500) {
    return `The service at ${baseURL} had a problem (${error.status}).${serverSays(error)}${error.traceId ? ` Trace id ${error.traceId}.` : ''} This is usually temporary: re-run the job.`;
  }
  if (error instanceof APIError) {
    return `The service refused the request (${error.status}).${serverSays(error)} Check the action's inputs.`;
  }
  if (error instanceof APIConnectionTimeoutError) {
    return `No answer from ${baseURL} in time. Check "base-url" and that the runner can reach it (firewall, proxy).`;
  }
  if (error instanceof APIConnectionError) {
    const cause = (error.cause as { code?: string } | undefined)?.code;
    return `Could not reach ${baseURL}${cause ? ` (${cause})` : ''}. Check "base-url", that the service is up, and that the runner can reach it (self-hosted runners may need a proxy).`;
  }
  if (error instanceof APIResponseValidationError) {
    return `The answer from ${baseURL} is not what the Agent Runs API sends (${error.status}). Check "base-url": it must be the API's address ending in /api/v1.`;
  }
  if (error instanceof ClientConfigError) return `Input "base-url": ${error.message}`;
  if (error instanceof RequestValidationError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
