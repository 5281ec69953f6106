import type { ErrorBody } from '../contract/error-body.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  type ResponseHeaders,
} from './api-error.js';
import { notFoundSubject } from './not-found-subject.js';

type APIErrorClass = new (...args: ConstructorParameters<typeof APIError>) => APIError;

const BY_STATUS: Record<number, APIErrorClass> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

function notFoundStep(url: string): string {
  const id = notFoundSubject(url);
  return id ? `Check ${id} and the base URL.` : 'Check the base URL.';
}

/** What the caller can do about each status, appended to the message. */
function nextStep(status: number, apiKeyVariables: string, url: string): string | undefined {
  switch (status) {
    case 401:
      return `Check the API key: pass apiKey or set ${apiKeyVariables}.`;
    case 403:
      return 'The API key is valid but may not do this: check its team, the environment and the MCP servers referenced.';
    case 404:
      return notFoundStep(url);
    case 429:
      return 'Rate limited: wait and try again, or lower the request rate.';
    default:
      return status >= 500 ? 'The server had a problem; it is usually temporary, so try again shortly.' : undefined;
  }
}

export interface MakeAPIErrorInput {
  status: number;
  body: ErrorBody | undefined;
  /** The raw text when the body was not a problem document. */
  rawText: string | undefined;
  headers: ResponseHeaders;
  request: { method: string; url: string };
  apiKeyVariables: string;
}

/** Turns a short excerpt of a non-JSON body (an HTML error page, say) into one plain line. */
function excerpt(text: string): string {
  const plain = text
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 160 ? `${plain.slice(0, 157)}...` : plain;
}

/** Builds the APIError subclass for a status, with a message that says what to do next. */
export function makeAPIError(input: MakeAPIErrorInput): APIError {
  const { status, body, rawText, headers, request } = input;
  const Class = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : APIError);
  const summary =
    body?.error ??
    ([body?.title, body?.detail].filter(Boolean).join(': ') ||
      (rawText ? `non-JSON response: ${excerpt(rawText) || '(empty body)'}` : '(no body)'));
  const step = nextStep(status, input.apiKeyVariables, request.url);
  const trace = body?.trace_id ? ` (trace ${body.trace_id})` : '';
  const message = `${status} ${summary}${trace} [${request.method} ${request.url}]${step ? ` ${step}` : ''}`;
  return new Class(status, body, headers, request, message);
}
