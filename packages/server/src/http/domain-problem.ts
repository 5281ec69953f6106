import { ConflictError, CredentialEndedError, InvalidInputError, NotFoundError, OutOfScopeError, QuotaExceededError, SpendCapReachedError, UnprocessableError, UnavailableError, type DomainError } from '../domain/domain-errors.js';
import { ApiProblem } from './api-problem.js';
import { rateLimitHeaders } from './rate-limit-headers.js';

/** The one place a service's domain error becomes the problem the caller reads. */
export function domainProblem(error: DomainError): ApiProblem | undefined {
  if (error instanceof NotFoundError) return new ApiProblem('resource_not_found', error.message);
  if (error instanceof InvalidInputError) return new ApiProblem('invalid_request', error.message, { issues: error.issues });
  if (error instanceof UnprocessableError) return new ApiProblem('operation_not_supported', error.message, { issues: error.issues });
  if (error instanceof ConflictError) return new ApiProblem('conflict', error.message, { retryable: error.retryable });
  if (error instanceof UnavailableError) {
    const after = error.retryAfterSeconds;
    return new ApiProblem('resource_unavailable', error.message, { headers: after === undefined ? {} : { 'retry-after': String(after) } });
  }
  if (error instanceof QuotaExceededError) {
    const headers = { 'retry-after': String(error.retryAfterSeconds), ...rateLimitHeaders(error.quota, error.limit, error.windowSeconds, 0, error.retryAfterSeconds) };
    return new ApiProblem('rate_limited', error.message, { headers });
  }
  if (error instanceof SpendCapReachedError) {
    // 402, not 429: a retry before the reset cannot succeed, and clients that retry a 429 must not spin on it.
    return new ApiProblem('budget_exceeded', error.message, { headers: { 'retry-after': String(error.retryAfterSeconds) } });
  }
  if (error instanceof OutOfScopeError) return new ApiProblem('not_authorized', error.message, { retryable: false });
  if (error instanceof CredentialEndedError) {
    return new ApiProblem('authentication_required', error.message, { headers: { 'www-authenticate': 'Bearer' }, retryable: false });
  }
  // A kind http/ does not know yet is answered (and logged) as an internal error.
  return undefined;
}
