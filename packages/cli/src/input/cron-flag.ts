import { UsageError } from '../usage-error.js';

// The cron parser loads only for the schedule commands, not on every start of the command.
const loadCron = () => import('@agent-runs/core/cron');

/** `--cron`, checked before anything is sent; core's parser, the one the server reads it with. */
export async function cronFlag(text: string | undefined, command: string): Promise<string | undefined> {
  if (text === undefined) return undefined;
  const check = (await loadCron()).parseCron(text);
  if (!check.ok) throw new UsageError(`--cron: ${check.reason}.`, command);
  return check.cron.expression;
}

/** The next `count` firings after now, as RFC 3339 times, in the zone the server reads it in. */
export async function nextFirings(expression: string, timeZone: string | undefined, count = 3, from = new Date()): Promise<string[]> {
  const check = (await loadCron()).parseCron(expression, timeZone ?? 'UTC');
  return check.ok ? check.cron.nextRuns(count, from).map((d) => d.toISOString()) : [];
}
