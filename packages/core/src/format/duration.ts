const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Milliseconds in a duration such as `45m`, `1h30m`, `90s`, `500ms` or a bare number of
 * seconds (`30`). Returns undefined for anything else, so callers can name the bad input.
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase();
  if (value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;
  let total = 0;
  let at = 0;
  while (at < value.length) {
    part.lastIndex = at;
    const match = part.exec(value);
    if (!match) return undefined;
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
    at = part.lastIndex;
  }
  return Math.round(total);
}

/** What parseDuration accepts, for error messages. */
export const DURATION_HINT = 'a duration such as 90s, 45m, 1h30m or a number of seconds';

/**
 * The longest duration a timeout, wait or interval may be. Node's timers hold at most
 * 2^31-1 ms (about 24.8 days); a longer one fires at once with a TimeoutOverflowWarning,
 * so a 600h wait would end in a second and a 9999999h command timeout would stop every run.
 */
export const MAX_DURATION_MS = 24 * UNIT_MS.d!;
/** MAX_DURATION_MS as people type it. */
export const MAX_DURATION = '24d';

export type DurationReading = { ms: number; problem?: undefined } | { ms?: undefined; problem: string };

/**
 * A duration given as a flag, input or argument, for a timer: the milliseconds, or what
 * is wrong, worded to follow the name of the flag ("--timeout must be at most 24d, got
 * \"600h\""). Every adapter reads its durations through this, so they share one bound.
 */
export function readDuration(text: string): DurationReading {
  const ms = parseDuration(text);
  if (ms === undefined) return { problem: `must be ${DURATION_HINT}, got "${text}"` };
  if (ms > MAX_DURATION_MS) {
    return { problem: `must be at most ${MAX_DURATION} (the longest timer Node.js keeps), got "${text}"` };
  }
  return { ms };
}

/** A compact elapsed time: `850ms`, `42s`, `3m12s`, `1h04m`. */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
