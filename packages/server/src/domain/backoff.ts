/**
 * How the waits between tries grow: doubling from `firstMs` up to `maxMs`, or a given list
 * of delays (spent after its last). `jitter` spreads each wait by ± that fraction, so the
 * many that failed together do not all try again at once.
 */
export type BackoffPlan = ({ firstMs: number; maxMs: number } | { delaysMs: readonly number[] }) & { jitter?: number };

/** The wait after the `failures`-th failure in a row (1 for the first); undefined once a list of delays is spent. */
export function backoffDelay(plan: BackoffPlan, failures: number, random: () => number = Math.random): number | undefined {
  const base = 'delaysMs' in plan ? plan.delaysMs[failures - 1] : Math.min(plan.firstMs * 2 ** (failures - 1), plan.maxMs);
  if (base === undefined || !plan.jitter) return base;
  return Math.round(base * (1 - plan.jitter + 2 * plan.jitter * random()));
}

/** A back-off under way: the failures in a row so far, and the wait each calls for. */
export class Backoff {
  private failures = 0;

  constructor(private readonly plan: BackoffPlan & { firstMs: number; maxMs: number }) {}

  /** Whether the last try failed. */
  get failing(): boolean {
    return this.failures > 0;
  }

  /** A try failed: the wait before the next. */
  next(): number {
    return backoffDelay(this.plan, ++this.failures)!;
  }

  /** A try succeeded: the next failure waits the shortest delay again. */
  reset(): void {
    this.failures = 0;
  }
}
