/** Runs stamped in the current millisecond are kept; beyond this many, older ones are dropped. */
const KEEP = 1024;

/**
 * RFC 3339 timestamps for runs, on the wall clock. A run's own timestamps strictly increase,
 * so its `updated_at` changes on every transition, even two in one millisecond; different
 * runs do not wait for each other, so a burst of thousands of changes keeps the wall clock's
 * time instead of running a millisecond ahead of it per change.
 */
export class MonotonicClock {
  /** The last millisecond given to each run, while it is not yet in the past. */
  private readonly last = new Map<string, number>();

  /** Now, or later than `runId`'s last timestamp from this clock and than `after` (a time the run already shows). */
  now(runId?: string, after?: string): string {
    let ms = Date.now();
    if (after !== undefined) {
      const shown = Date.parse(after);
      if (shown >= ms) ms = shown + 1;
    }
    if (runId !== undefined) {
      const previous = this.last.get(runId);
      if (previous !== undefined && previous >= ms) ms = previous + 1;
      if (this.last.size >= KEEP) this.forgetPast();
      this.last.set(runId, ms);
    }
    return new Date(ms).toISOString();
  }

  /** A run whose last millisecond is past gets a later one from Date.now() alone. */
  private forgetPast(): void {
    const now = Date.now();
    for (const [id, ms] of this.last) if (ms < now) this.last.delete(id);
  }
}
