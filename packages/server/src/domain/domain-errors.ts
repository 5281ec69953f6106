import type { ValidationIssue } from '@agent-runs/core/contract';

/**
 * What a service throws when it cannot do what was asked. Services know nothing of HTTP:
 * `http/` turns each kind into its problem (404, 400, 409, 503) at the edge.
 */
export abstract class DomainError extends Error {}

/** The thing named does not exist, or the caller may not see it (the two look the same). */
export class NotFoundError extends DomainError {
  override name = 'NotFoundError';
}

/** The input is unusable; `issues` name each field and what would be valid. */
export class InvalidInputError extends DomainError {
  override name = 'InvalidInputError';
  constructor(
    readonly issues: readonly ValidationIssue[],
    message = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; '),
  ) {
    super(message);
  }
}

/** The request is well formed but cannot be carried out as it stands (a message to a run that has ended); `issues` name the fields. */
export class UnprocessableError extends DomainError {
  override name = 'UnprocessableError';
  constructor(
    readonly issues: readonly ValidationIssue[],
    message = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; '),
  ) {
    super(message);
  }
}

/** The request is valid but the thing is not in a state that allows it now. */
export class ConflictError extends DomainError {
  override name = 'ConflictError';
  /** Whether the same request may succeed later unchanged (a run being handed to a worker). */
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

/** Something the service depends on is not reachable now; the same request may succeed later. */
export class UnavailableError extends DomainError {
  override name = 'UnavailableError';
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/**
 * A principal is over one of its quotas (the `quotas:` section): too many runs held or
 * started. The same request may succeed once the quota frees, in `retryAfterSeconds`.
 */
export class QuotaExceededError extends DomainError {
  override name = 'QuotaExceededError';
  constructor(
    /** The quota's name, as the RateLimit headers name their policy: `creates`, `queued`, `in_flight`. */
    readonly quota: string,
    readonly limit: number,
    /** The quota's window in seconds (a count held at once has none: its Retry-After is a guess). */
    readonly windowSeconds: number,
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A principal's runs spent its daily cap (`quotas:` `spend_per_day_usd`): no run of it may
 * start until the cap resets at the next UTC midnight, `resetsAt`, in `retryAfterSeconds`.
 */
export class SpendCapReachedError extends DomainError {
  override name = 'SpendCapReachedError';
  constructor(
    readonly capUsd: number,
    readonly spentUsd: number,
    /** RFC 3339, the next UTC midnight. */
    readonly resetsAt: string,
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
}

/** The caller's credential is valid but does not reach this (a run token outside its scope): 403. */
export class OutOfScopeError extends DomainError {
  override name = 'OutOfScopeError';
}

/** The caller's credential no longer holds (a run token whose run has ended): 401. */
export class CredentialEndedError extends DomainError {
  override name = 'CredentialEndedError';
}
