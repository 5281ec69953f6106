import type { ErrorBody } from '../contract/error-body.js';

const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/** Whether a failed answer may be retried: 408, 409, 429 and 5xx, unless the body says `retryable: false`. */
export function isRetryableStatus(status: number, body: ErrorBody | undefined): boolean {
  if (body?.retryable === false) return false;
  return RETRYABLE_STATUSES.has(status) || status >= 500;
}
