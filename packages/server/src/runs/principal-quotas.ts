import type { RunStatusMessage } from '@agent-runs/core/contract';
import { QuotaExceededError, SpendCapReachedError } from '../domain/domain-errors.js';
import type { QuotaPolicy, QuotaRule } from '../domain/server-config.js';
import type { RunStore } from '../store/runs/run-store.js';
import { utcDay, type PrincipalSpend } from '../store/spend/principal-spend-table.js';
import { minuteAgoSecond } from '../store/runs/principal-creates.js';

const MINUTE_MS = 60_000;
/** A count held at once frees when a run moves on, which no one can foretell: the caller is told to look again in this long. */
const HELD_RETRY_SECONDS = 5;

/**
 * In how many seconds (at least 1) the creates of `second` (`2026-11-29T10:00:00`, as the
 * counters keep it) leave the last-minute window: a second is in it until 60 s after its start.
 */
function leavesIn(second: string | undefined, now: Date): number {
  if (second === undefined) return 1;
  return Math.max(1, Math.ceil((Date.parse(`${second}Z`) + MINUTE_MS - now.getTime()) / 1000));
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

/**
 * The `quotas:` section held at create and follow-up: the principal's own rule, else the
 * default. Read from the database, never kept in memory, so servers sharing one database
 * share each principal's counts: the runs it holds from the counters the database moves with
 * each run (principal-run-counts.ts), one row per state; its creates of the last minute from
 * per-second counters (principal-creates.ts), to the second. Two creates racing may both
 * pass: a quota is a brake, not a lock.
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
   * Throws SpendCapReachedError when the principal's runs spent its daily cap, else
   * QuotaExceededError when one more run now would be over a quota.
   */
  async check(principal: string | undefined, now: Date = new Date()): Promise<void> {
    const rule = this.rule(principal);
    if (!rule || principal === undefined) return;
    await this.checkSpend(principal, now);
    const who = `principal ${principal}`;
    if (rule.runs_queued !== undefined || rule.runs_in_flight !== undefined) {
      const held = await this.store.heldRuns(principal);
      if (rule.runs_queued !== undefined && held.queued >= rule.runs_queued) {
        throw new QuotaExceededError('queued', rule.runs_queued, 0, HELD_RETRY_SECONDS, `${who} already has ${held.queued} queued runs, its quota runs_queued (${rule.runs_queued}); one frees when a queued run starts or ends.`);
      }
      if (rule.runs_in_flight !== undefined && held.inProgress >= rule.runs_in_flight) {
        throw new QuotaExceededError('in_flight', rule.runs_in_flight, 0, HELD_RETRY_SECONDS, `${who} already has ${held.inProgress} runs in progress, its quota runs_in_flight (${rule.runs_in_flight}); one frees when a run ends.`);
      }
    }
    const limit = rule.creates_per_minute;
    if (limit === undefined) return;
    const { count: created, oldestSecond } = await this.store.recentCreates(principal, minuteAgoSecond(now));
    if (created >= limit) {
      const frees = leavesIn(oldestSecond, now);
      throw new QuotaExceededError('creates', limit, 60, frees, `${who} created ${created} runs in the last 60 seconds, its quota creates_per_minute (${limit}); the next frees in ${frees} s.`);
    }
  }

  /** Where the principal stands against its per-minute quota after a create that went through; undefined when none applies. */
  async standing(principal: string | undefined, now: Date = new Date()): Promise<QuotaStanding | undefined> {
    const limit = this.rule(principal)?.creates_per_minute;
    if (limit === undefined || principal === undefined) return undefined;
    const { count: created, oldestSecond } = await this.store.recentCreates(principal, minuteAgoSecond(now));
    const reset = oldestSecond === undefined ? 60 : leavesIn(oldestSecond, now);
    return { quota: 'creates', limit, windowSeconds: 60, remaining: limit - created, resetSeconds: reset };
  }

  /**
   * Throws SpendCapReachedError when the principal's runs spent its daily cap: a follow-up to a
   * live run adds no run, but it would have the run spend on.
   */
  async checkSpend(principal: string | undefined, now: Date = new Date()): Promise<void> {
    const rule = this.rule(principal);
    if (!rule || principal === undefined) return;
    const capped = await this.overSpend(principal, rule, now);
    if (!capped) return;
    const { cap, spent, resetsAt } = capped;
    const retryAfter = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
    throw new SpendCapReachedError(
      cap,
      spent.costUsd,
      resetsAt.toISOString(),
      retryAfter,
      `principal ${principal} spent $${usd(spent.costUsd)} today (UTC), its quota spend_per_day_usd (${cap}); it resets at ${resetsAt.toISOString()}, in ${retryAfter} s.`,
    );
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
      message: `stopped at the daily spend cap: principal ${principal} spent $${usd(capped.spent.costUsd)} today (UTC) of its quota spend_per_day_usd ${capped.cap}, which resets at ${capped.resetsAt.toISOString()}. A follow-up after then continues the run.`,
      error_code: 'budget_exceeded',
      retryable: false,
    };
  }

  /** Where the principal stands against each of its quotas now (an absent limit: none holds). */
  async use(principal: string | undefined, now: Date = new Date()): Promise<QuotaUse> {
    const rule = principal === undefined ? undefined : this.rule(principal);
    const day = utcDay(now.toISOString());
    const resetsAt = nextUtcMidnight(now).toISOString();
    if (principal === undefined) {
      const none = { used: 0, limit: undefined };
      return { principal, runsInFlight: none, runsQueued: none, createsPerMinute: { ...none, resetSeconds: undefined }, spendToday: { costUsd: 0, tokens: 0, day, limitUsd: undefined, resetsAt } };
    }
    const perMinute = rule?.creates_per_minute;
    const [held, created, standing, spent] = await Promise.all([
      this.store.heldRuns(principal),
      this.store.recentCreates(principal, minuteAgoSecond(now)).then((recent) => recent.count),
      perMinute === undefined ? undefined : this.standing(principal, now),
      this.store.spendOf(principal, day),
    ]);
    return {
      principal,
      runsInFlight: { used: held.inProgress, limit: rule?.runs_in_flight },
      runsQueued: { used: held.queued, limit: rule?.runs_queued },
      createsPerMinute: { used: created, limit: perMinute, resetSeconds: standing?.resetSeconds },
      spendToday: { ...spent, day, limitUsd: rule?.spend_per_day_usd, resetsAt },
    };
  }

  /** The principal's cap, what it spent today and when that resets, when the spend reached the cap. */
  private async overSpend(principal: string, rule: QuotaRule, now: Date): Promise<{ cap: number; spent: PrincipalSpend; resetsAt: Date } | undefined> {
    const cap = rule.spend_per_day_usd;
    if (cap === undefined) return undefined;
    const spent = await this.store.spendOf(principal, utcDay(now.toISOString()));
    return spent.costUsd >= cap ? { cap, spent, resetsAt: nextUtcMidnight(now) } : undefined;
  }
}
