import { parseDuration } from '@agent-runs/core';

/**
 * A time bound as the API wants it (RFC 3339). Also takes a duration meaning "that long
 * ago" (`2h`, `7d`), which is what people usually mean on a command line.
 */
export function timestampFlag(value: string, now = Date.now()): string {
  const ago = /^\s*\d/.test(value) && !/[-:T]/.test(value) ? parseDuration(value) : undefined;
  return ago === undefined ? value.trim() : new Date(now - ago).toISOString();
}
