import type { ErrorBody } from '../contract/error-body.js';

const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/** Whether a failed answer may be retried: 408, 409, 429 and 5xx, unless the body says `retryable: false`. */
export function isRetryableStatus(status: number, body: ErrorBody | undefined): boolean {
  if (body?.retryable === false) return false;
  return RETRYABLE_STATUSES.has(status) || status >= 500;
}

// Failures before the request could reach the server: any method may be sent again.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a connection failure with this code happened before anything was sent. */
export function failedBeforeSending(code: string | undefined): boolean {
  return code !== undefined && NOT_SENT_CODES.has(code);
}

/**
 * Whether a request whose answer was lost (a reset or a timeout after sending) may be sent
 * again: reads, PUT and DELETE, which mean the same the second time, and a POST or PATCH
 * only when an Idempotency-Key makes the server answer a repeat with the first result.
 */
export function mayRepeatAfterLostAnswer(method: string, idempotencyKeyed: boolean): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE' || idempotencyKeyed;
}
