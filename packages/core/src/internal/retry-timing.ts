const INITIAL_RETRY_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/** Exponential backoff with jitter for the n-th retry (0-based): 0.5 s, 1 s, 2 s … capped at 8 s. */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_BACKOFF_MS);
  // Up to 25% less, so that many clients failing together do not retry in step.
  return Math.round(base * (1 - 0.25 * random()));
}

/**
 * Milliseconds a `Retry-After` (seconds or an HTTP date) or `retry-after-ms` header
 * asks for; undefined when absent or unreadable.
 */
export function retryAfterMs(
  headers: Record<string, string | string[] | undefined>,
  now: number = Date.now(),
): number | undefined {
  const first = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const ms = first('retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const value = first('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
