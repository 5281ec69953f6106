import { ERROR_CODE_STATUS, ERROR_TYPE_BASE, type ErrorBody, type ErrorCode, type ValidationIssue } from '@agent-runs/core/contract';
import { randomUUID } from 'node:crypto';

const TITLES: Partial<Record<ErrorCode, string>> = {
  invalid_request: 'Invalid request',
  authentication_required: 'Authentication required',
  not_authorized: 'Not authorized',
  resource_not_found: 'Resource not found',
  conflict: 'Conflict',
  operation_not_supported: 'Operation not supported',
  rate_limited: 'Rate limited',
  internal_error: 'Internal error',
  resource_unavailable: 'Resource unavailable',
};

/** A failure to answer with an Error body; thrown by http/ and routes/ (services throw domain errors), rendered by the server. */
export class ApiProblem extends Error {
  readonly status: number;
  readonly retryable: boolean;
  readonly headers: Record<string, string>;
  /** For invalid_request: each field at fault, sent as the `issues` extension member. */
  readonly issues: readonly ValidationIssue[];
  /** Names this failure in the answer and in the server's log, so the two can be matched. */
  readonly traceId = randomUUID();

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    options: { status?: number; retryable?: boolean; headers?: Record<string, string>; issues?: readonly ValidationIssue[] } = {},
  ) {
    super(detail);
    this.status = options.status ?? ERROR_CODE_STATUS[code];
    // Only what may succeed unchanged on a second try is retryable; a 409 says so itself.
    this.retryable = options.retryable ?? (this.status >= 500 || this.status === 429);
    this.headers = options.headers ?? {};
    this.issues = options.issues ?? [];
  }

  body(instance: string): ErrorBody {
    const title = TITLES[this.code] ?? this.code.replace(/_/g, ' ');
    return {
      type: `${ERROR_TYPE_BASE}${this.code}`,
      title,
      status: this.status,
      error: `${title}: ${this.detail}`,
      detail: this.detail,
      instance,
      retryable: this.retryable,
      trace_id: this.traceId,
      // Clients name the fields from these, never by reading `detail`.
      issues: this.issues.length ? this.issues.map(({ path, message }) => ({ path, message })) : undefined,
    };
  }
}
