import type { ErrorBody } from '../contract/error-body.js';
import { errorCodeOf } from '../contract/error-body.js';
import type { ValidationIssue } from '../contract/format-issues.js';
import { AgentRunsError } from './agent-runs-error.js';
import { notFoundSubject } from './not-found-subject.js';
import { retryAfterMs } from '../internal/retry-timing.js';

export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** The server answered with a 4xx or 5xx status. */
export class APIError extends AgentRunsError {
  override name = 'APIError';
  /** The HTTP status. */
  readonly status: number;
  readonly headers: ResponseHeaders;
  /** The parsed problem body; undefined when the body was not JSON (an HTML page, say). */
  readonly body: ErrorBody | undefined;
  /** The error code from the body's `type`, e.g. `invalid_request`. */
  readonly code: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  /** The server's own verdict; undefined when it did not say. */
  readonly retryable: boolean | undefined;
  readonly traceId: string | undefined;
  /** For an invalid request, each field at fault (`path`) and what would be valid; empty when the server named none. */
  readonly issues: readonly ValidationIssue[];
  /** The method and path of the request. */
  readonly request: { method: string; url: string };
  /** How long the server asked to wait before another try (`Retry-After`, `retry-after-ms`), read when the answer came; undefined when it did not say. */
  readonly retryAfterMs: number | undefined;

  constructor(
    status: number,
    body: ErrorBody | undefined,
    headers: ResponseHeaders,
    request: { method: string; url: string },
    message: string,
  ) {
    super(message);
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.request = request;
    this.code = errorCodeOf(body);
    this.title = body?.title;
    this.detail = body?.detail;
    this.retryable = body?.retryable;
    this.traceId = body?.trace_id;
    this.issues = body?.issues ?? [];
    this.retryAfterMs = retryAfterMs(headers);
  }
}

export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends APIError {
  override name = 'NotFoundError';

  /** The id the request's path names, to check: `the run id`, `the webhook id`…; undefined when it names none. */
  get missing(): string | undefined {
    return notFoundSubject(this.request.url);
  }
}
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
}
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}
