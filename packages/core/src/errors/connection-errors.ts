import { AgentRunsError } from './agent-runs-error.js';

/** The request never got an answer: refused, reset, DNS failure. */
export class APIConnectionError extends AgentRunsError {
  override name = 'APIConnectionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No complete answer within the request's timeout. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
}

/** The caller aborted through its AbortSignal. Never retried. */
export class APIUserAbortError extends AgentRunsError {
  override name = 'APIUserAbortError';
  constructor(message = 'The request was aborted.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A 2xx answer whose body is not what the contract says (malformed JSON, missing members). */
export class APIResponseValidationError extends AgentRunsError {
  override name = 'APIResponseValidationError';
  readonly status: number;
  constructor(message: string, status: number, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
  }
}
