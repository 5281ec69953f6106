import { formatElapsed } from '@agent-runs/core';

/** `3m ago` from an RFC 3339 time; the raw text if unreadable (the caller makes it visible text). */
export function timeAgo(timestamp: string, now: number): string {
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return timestamp;
  return `${formatElapsed(Math.max(0, now - at)).replace(/^(\d+)ms$/, '0s')} ago`;
}
