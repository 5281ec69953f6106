import type { RunItem } from '@agent-runs/core';

/**
 * How long the run has existed: since it started (or was created, while queued), not
 * since this command began watching it. Never negative, should the server's clock run ahead.
 */
export function runAgeMs(run: RunItem, now = Date.now()): number | undefined {
  const from = Date.parse(run.started_at ?? run.created_at);
  return Number.isNaN(from) ? undefined : Math.max(0, now - from);
}
