import { parseDuration } from '@agent-runs/core';
import { UsageError } from '../usage-error.js';

/**
 * A time bound as the API wants it (RFC 3339). Also takes a duration meaning "that long
 * ago" (`2h`, `7d`), which is what people usually mean on a command line.
 */
export function timestampFlag(value: string, now = Date.now(), flag = 'the time flag', command?: string): string {
  const ago = /^\s*\d/.test(value) && !/[-:T]/.test(value) ? parseDuration(value) : undefined;
  if (ago === undefined) return value.trim();
  const at = new Date(now - ago);
  // Further back than a Date can go (about 270,000 years) is a typo, not a time.
  if (Number.isNaN(at.getTime())) throw new UsageError(`${flag} goes back further than any time, got "${value}".`, command);
  return at.toISOString();
}
