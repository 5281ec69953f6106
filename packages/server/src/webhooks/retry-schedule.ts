import { backoffDelay } from '../domain/backoff.js';

/**
 * The Standard Webhooks retry schedule: after the first attempt, again after 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h, 14 h and 20 h (about 2.6 days in all), then give up.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000, 50_400, 72_000].map((s) => s * 1000);

/** The most a receiver's Retry-After may push the next attempt back. */
const MAX_RETRY_AFTER_MS = 24 * 3600_000;

/**
 * When to try again after `attempts` failed attempts: the schedule's delay with ±20%
 * jitter (so receivers recovering from an outage are not hit all at once), or what the
 * receiver's Retry-After asks within a day; undefined once the schedule is spent.
 */
export function nextDelayMs(attempts: number, delays: readonly number[], retryAfterMs?: number, random = Math.random): number | undefined {
  if (delays[attempts - 1] === undefined) return undefined;
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return backoffDelay({ delaysMs: delays, jitter: 0.2 }, attempts, random);
}

/** Retry-After as milliseconds: seconds, or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,9}$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
