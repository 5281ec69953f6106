import { parseCron } from '@agent-runs/server/cron';
import { UsageError } from '../usage-error.js';

/** `--cron`, checked before anything is sent; the same parser as the server's. */
export function cronFlag(text: string | undefined, command: string): string | undefined {
  if (text === undefined) return undefined;
  const check = parseCron(text);
  if (!check.ok) throw new UsageError(`--cron: ${check.reason}.`, command);
  return check.cron.expression;
}

/** The next `count` firings after now, as RFC 3339 times, in the zone the server reads it in. */
export function nextFirings(expression: string, timeZone: string | undefined, count = 3, from = new Date()): string[] {
  const check = parseCron(expression, timeZone ?? 'UTC');
  return check.ok ? check.cron.nextRuns(count, from).map((d) => d.toISOString()) : [];
}
