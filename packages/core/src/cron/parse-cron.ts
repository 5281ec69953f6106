import { Cron } from 'croner';

export const CRON_HINT = 'a 5-field cron expression: minute hour day-of-month month day-of-week, such as "0 9 * * 1-5"';

export type CronCheck = { ok: true; cron: CronSchedule } | { ok: false; reason: string };

/** A parsed 5-field cron expression in one time zone. */
export interface CronSchedule {
  readonly expression: string;
  readonly timeZone: string;
  /** The first firing strictly after `from`, or undefined when it never fires again. */
  nextAfter(from: Date): Date | undefined;
  /** The next `count` firings strictly after `from`. */
  nextRuns(count: number, from: Date): Date[];
  /** The latest firing at or before `at` (for catching up missed ticks with one run). */
  latestAtOrBefore(at: Date): Date | undefined;
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses a 5-field expression (croner, strict 5-part mode) in `timeZone`. The reason of a
 * failure says what is wrong, for a 400 or a command-line error.
 */
export function parseCron(expression: string, timeZone = 'UTC'): CronCheck {
  if (!isTimeZone(timeZone)) return { ok: false, reason: `"${timeZone}" is not an IANA time zone such as UTC or Europe/Paris` };
  const text = expression.trim();
  let job: Cron;
  try {
    job = new Cron(text, { mode: '5-part', timezone: timeZone, paused: true });
  } catch (error) {
    const message = (error as Error).message.replace(/^CronPattern:\s*/, '');
    return { ok: false, reason: `"${text}" is not ${CRON_HINT} (${message})` };
  }
  if (!job.nextRun(new Date())) return { ok: false, reason: `"${text}" never fires (no such date)` };
  const nextAfter = (from: Date) => job.nextRun(from) ?? undefined;
  return {
    ok: true,
    cron: {
      expression: text,
      timeZone,
      nextAfter,
      nextRuns: (count, from) => job.nextRuns(count, from),
      latestAtOrBefore: (at) => job.previousRuns(1, new Date(at.getTime() + 1))[0],
    },
  };
}
