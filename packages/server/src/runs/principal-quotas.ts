import { QuotaExceededError } from '../domain/domain-errors.js';
import type { QuotaPolicy, QuotaRule } from '../domain/server-config.js';
import type { RunStore } from '../store/runs/run-store.js';

const MINUTE_MS = 60_000;
/** A count held at once frees when a run moves on, which no one can foretell: the caller is told to look again in this long. */
const HELD_RETRY_SECONDS = 5;

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
 * default. Counted from the runs table, never in memory, so servers sharing one database
 * share each principal's counts (two creates racing may both pass: a quota is a brake, not a lock).
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

  /** Throws QuotaExceededError when one more run now would be over a quota. */
  async check(principal: string | undefined, now: Date = new Date()): Promise<void> {
    const rule = this.rule(principal);
    if (!rule || principal === undefined) return;
    const who = `principal ${principal}`;
    if (rule.runs_queued !== undefined) {
      const held = await this.count(principal, rule.runs_queued, { states: ['QUEUED'] });
      if (held >= rule.runs_queued) {
        throw new QuotaExceededError('queued', rule.runs_queued, 0, HELD_RETRY_SECONDS, `${who} already has ${held} queued runs, its quota runs_queued (${rule.runs_queued}); one frees when a queued run starts or ends.`);
      }
    }
    if (rule.runs_in_flight !== undefined) {
      const held = await this.count(principal, rule.runs_in_flight, { states: ['INPROGRESS'] });
      if (held >= rule.runs_in_flight) {
        throw new QuotaExceededError('in_flight', rule.runs_in_flight, 0, HELD_RETRY_SECONDS, `${who} already has ${held} runs in progress, its quota runs_in_flight (${rule.runs_in_flight}); one frees when a run ends.`);
      }
    }
    const limit = rule.creates_per_minute;
    if (limit === undefined) return;
    const since = new Date(now.getTime() - MINUTE_MS).toISOString();
    const window = { creator: principal, createdAfter: since, sortBy: 'created_at', sortOrder: 'asc' } as const;
    const created = await this.store.count({ ...window, limit });
    if (created >= limit) {
      // Only now are runs read: the oldest of the window's last `limit` creates leaves it first.
      const recent = await this.store.list({ ...window, limit: limit + 1 });
      const oldest = recent.runs[Math.max(0, recent.runs.length - limit)]!;
      const frees = Math.max(1, Math.ceil((Date.parse(oldest.createdAt) + MINUTE_MS - now.getTime()) / 1000));
      throw new QuotaExceededError('creates', limit, 60, frees, `${who} created ${created} runs in the last 60 seconds, its quota creates_per_minute (${limit}); the next frees in ${frees} s.`);
    }
  }

  /** Where the principal stands against its per-minute quota after a create that went through; undefined when none applies. */
  async standing(principal: string | undefined, now: Date = new Date()): Promise<QuotaStanding | undefined> {
    const limit = this.rule(principal)?.creates_per_minute;
    if (limit === undefined || principal === undefined) return undefined;
    const window = { creator: principal, createdAfter: new Date(now.getTime() - MINUTE_MS).toISOString(), sortBy: 'created_at', sortOrder: 'asc' } as const;
    const created = await this.store.count({ ...window, limit });
    // The oldest run of the window, the one that leaves it first: one row by the created_at order.
    const [oldest] = (await this.store.list({ ...window, limit: 1 })).runs;
    const reset = oldest ? Math.max(1, Math.ceil((Date.parse(oldest.createdAt) + MINUTE_MS - now.getTime()) / 1000)) : 60;
    return { quota: 'creates', limit, windowSeconds: 60, remaining: limit - created, resetSeconds: reset };
  }

  private async count(principal: string, limit: number, filter: { states: ('QUEUED' | 'INPROGRESS')[] }): Promise<number> {
    return this.store.count({ creator: principal, ...filter, limit, sortBy: 'created_at', sortOrder: 'desc' });
  }
}
