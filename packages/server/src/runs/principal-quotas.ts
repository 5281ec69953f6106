import type { RunStatusMessage } from '@agent-runs/core/contract';
import { QuotaExceededError, SpendCapReachedError } from '../domain/domain-errors.js';
import type { QuotaPolicy, QuotaRule } from '../domain/server-config.js';
import type { RunStore } from '../store/runs/run-store.js';
import { utcDayOf, type PrincipalSpend } from '../store/spend/principal-spend-table.js';
import { minuteAgoSecond } from '../store/runs/principal-creates.js';
import { quotaReached, type PrincipalStanding, type QuotaHold } from '../store/runs/principal-standing.js';

const MINUTE_MS = 60_000;
/** A count held at once frees when a run moves on, which no one can foretell: the caller is told to look again in this long. */
const HELD_RETRY_SECONDS = 5;

/**
 * In how many seconds (at least 1) the creates of `second` (`2026-11-29T10:00:00`, as the
 * counters keep it) leave the last-minute window: a second is in it until 60 s after its start.
 */
function leavesIn(second: string | undefined, now: Date): number {
  if (second === undefined) return 1;
  return Math.max(1, Math.ceil((secondStart(second) + MINUTE_MS - now.getTime()) / 1000));
}

/** The last second secondStart parsed: a minute's creates ask for the same oldest second, and parsing a date costs more than the rest of the answer. */
let lastParsed = { second: '', ms: 0 };

function secondStart(second: string): number {
  if (second !== lastParsed.second) lastParsed = { second, ms: Date.parse(`${second}Z`) };
  return lastParsed.ms;
}

/** Where a principal stands against each of its quotas now: what `GET /agent/quota` answers. */
export interface QuotaUse {
  principal: string | undefined;
  runsInFlight: { used: number; limit: number | undefined };
  runsQueued: { used: number; limit: number | undefined };
  createsPerMinute: { used: number; limit: number | undefined; resetSeconds: number | undefined };
  spendToday: PrincipalSpend & { day: string; limitUsd: number | undefined; resetsAt: string };
}

/** The next UTC midnight after `now`, when a day's spend starts again from nothing. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** Dollars as a person reads them: cents, or four significant digits below a dollar. */
function usd(amount: number): string {
  return amount >= 1 ? amount.toFixed(2) : String(Number(amount.toPrecision(4)));
}

/** What the caller is told about the quota that applies to a create that went through. */
export interface QuotaStanding {
  quota: string;
  limit: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

/** The 402 of a principal whose runs spent its daily cap `cap`, with when it resets. */
function spendCapReached(principal: string, cap: number, spent: PrincipalSpend, now: Date): SpendCapReachedError {
  const resetsAt = nextUtcMidnight(now);
  const retryAfter = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
  return new SpendCapReachedError(
    cap,
    spent.costUsd,
    resetsAt.toISOString(),
    retryAfter,
    `principal ${principal} spent $${usd(spent.costUsd)} today (UTC), its quota spend_per_day_usd (${cap}); it resets at ${resetsAt.toISOString()}, in ${retryAfter} s.`,
  );
}

/**
 * The `quotas:` section held at create and follow-up: the principal's own rule, else the
 * default. Read from the database, never kept in memory, so servers sharing one database
 * share each principal's counts: the runs it holds from the counters the database moves with
 * each run (principal-run-counts.ts), one row per state; its creates of the last minute from
 * per-second counters (principal-creates.ts), to the second; its spend of the day
 * (principal-spend-table.ts). A check reads them in one statement (principal-standing.ts). A
 * create's is read by the store in the create's own transaction (`hold`, then `judge` on what it
 * read), so creates racing cannot both pass; a follow-up's (`check`) is read before it.
 */
export class PrincipalQuotas {
  constructor(
    private readonly policy: QuotaPolicy | undefined,
    private readonly store: RunStore,
  ) {}

  rule(principal: string | undefined): QuotaRule | undefined {
    if (!this.policy) return undefined;
    return (principal !== undefined ? this.policy.principals?.[principal] : undefined) ?? this.policy.default;
  }

  /**
   * What a create of the principal is held to (the store reads and holds it in the create's own
   * transaction: exact when creates race): the limits of its rule and only the counters they
   * need, `now` setting the window and the day. Undefined when its rule sets no limit.
   */
  hold(principal: string | undefined, now: Date = new Date()): QuotaHold | undefined {
    const rule = this.rule(principal);
    if (!rule || principal === undefined) return undefined;
    const { runs_queued: queued, runs_in_flight: inFlight, creates_per_minute: createsPerMinute, spend_per_day_usd: spendPerDayUsd } = rule;
    const held = queued !== undefined || inFlight !== undefined;
    if (!held && createsPerMinute === undefined && spendPerDayUsd === undefined) return undefined;
    return {
      limits: { queued, inFlight, createsPerMinute, spendPerDayUsd },
      wanted: { held, createsSince: createsPerMinute === undefined ? undefined : minuteAgoSecond(now), spendDay: spendPerDayUsd === undefined ? undefined : utcDayOf(now) },
    };
  }

  /**
   * Throws SpendCapReachedError when the principal's runs spent its daily cap, else
   * QuotaExceededError when one more run now would be over a quota, reading the counters its
   * rule sets a limit on in one store read (none without a limit): for a follow-up that queues
   * an ended run again, which stores no new run. Answers as `judge`.
   */
  async check(principal: string | undefined, now: Date = new Date()): Promise<QuotaStanding | undefined> {
    const hold = this.hold(principal, now);
    if (!hold || principal === undefined) return undefined;
    return this.judge(principal, hold, await this.store.standingOf(principal, hold.wanted), now);
  }

  /**
   * Throws, as `check`, when the principal standing so (before one more run) is at a quota of
   * `hold`; else answers where it stands against its per-minute quota once that run is stored
   * (undefined when none applies), so a create's RateLimit headers need no read of their own.
   */
  judge(principal: string, hold: QuotaHold, standing: PrincipalStanding, now: Date): QuotaStanding | undefined {
    const { queued, inFlight, createsPerMinute: perMinute, spendPerDayUsd: cap } = hold.limits;
    const who = `principal ${principal}`;
    switch (quotaReached(hold.limits, standing)) {
      case 'spend':
        throw spendCapReached(principal, cap!, standing.spend, now);
      case 'queued':
        throw new QuotaExceededError('queued', queued!, 0, HELD_RETRY_SECONDS, `${who} already has ${standing.held.queued} queued runs, its quota runs_queued (${queued}); one frees when a queued run starts or ends.`);
      case 'in_flight':
        throw new QuotaExceededError('in_flight', inFlight!, 0, HELD_RETRY_SECONDS, `${who} already has ${standing.held.inProgress} runs in progress, its quota runs_in_flight (${inFlight}); one frees when a run ends.`);
      case 'creates': {
        const frees = leavesIn(standing.creates.oldestSecond, now);
        throw new QuotaExceededError('creates', perMinute!, 60, frees, `${who} created ${standing.creates.count} runs in the last 60 seconds, its quota creates_per_minute (${perMinute}); the next frees in ${frees} s.`);
      }
    }
    if (perMinute === undefined) return undefined;
    const { count: created, oldestSecond } = standing.creates;
    // This run counted: one fewer left, and a window that was empty starts with it (60 s).
    return { quota: 'creates', limit: perMinute, windowSeconds: 60, remaining: perMinute - created - 1, resetSeconds: oldestSecond === undefined ? 60 : leavesIn(oldestSecond, now) };
  }

  /**
   * Throws SpendCapReachedError when the principal's runs spent its daily cap: a follow-up to a
   * live run adds no run, but it would have the run spend on.
   */
  async checkSpend(principal: string | undefined, now: Date = new Date()): Promise<void> {
    const rule = this.rule(principal);
    if (!rule || principal === undefined) return;
    const capped = await this.overSpend(principal, rule, now);
    if (capped) throw spendCapReached(principal, capped.cap, capped.spent, now);
  }

  /**
   * Why a run of the principal in progress must stop now: its runs spent its daily cap (the
   * run's own last usage update included). Undefined while under it, or when it has none.
   */
  async spendStop(principal: string | undefined, now: Date = new Date()): Promise<RunStatusMessage | undefined> {
    const rule = this.rule(principal);
    if (!rule || principal === undefined) return undefined;
    const capped = await this.overSpend(principal, rule, now);
    if (!capped) return undefined;
    return {
      message: `stopped at the daily spend cap: principal ${principal} spent $${usd(capped.spent.costUsd)} today (UTC) of its quota spend_per_day_usd ${capped.cap}, which resets at ${nextUtcMidnight(now).toISOString()}. A follow-up after then continues the run.`,
      error_code: 'budget_exceeded',
      retryable: false,
    };
  }

  /** Where the principal stands against each of its quotas now (an absent limit: none holds). */
  async use(principal: string | undefined, now: Date = new Date()): Promise<QuotaUse> {
    const rule = principal === undefined ? undefined : this.rule(principal);
    const day = utcDayOf(now);
    const resetsAt = nextUtcMidnight(now).toISOString();
    if (principal === undefined) {
      const none = { used: 0, limit: undefined };
      return { principal, runsInFlight: none, runsQueued: none, createsPerMinute: { ...none, resetSeconds: undefined }, spendToday: { costUsd: 0, tokens: 0, day, limitUsd: undefined, resetsAt } };
    }
    const perMinute = rule?.creates_per_minute;
    const { held, creates, spend } = await this.store.standingOf(principal, { held: true, createsSince: minuteAgoSecond(now), spendDay: day, spendTokens: true });
    // As a create's headers say it: an empty window frees in a whole minute.
    const resetSeconds = perMinute === undefined ? undefined : creates.oldestSecond === undefined ? 60 : leavesIn(creates.oldestSecond, now);
    return {
      principal,
      runsInFlight: { used: held.inProgress, limit: rule?.runs_in_flight },
      runsQueued: { used: held.queued, limit: rule?.runs_queued },
      createsPerMinute: { used: creates.count, limit: perMinute, resetSeconds },
      spendToday: { ...spend, day, limitUsd: rule?.spend_per_day_usd, resetsAt },
    };
  }

  /** The principal's cap and what it spent today, when the spend reached the cap. */
  private async overSpend(principal: string, rule: QuotaRule, now: Date): Promise<{ cap: number; spent: PrincipalSpend } | undefined> {
    const cap = rule.spend_per_day_usd;
    if (cap === undefined) return undefined;
    const spent = await this.store.spendOf(principal, utcDayOf(now));
    return spent.costUsd >= cap ? { cap, spent } : undefined;
  }
}
