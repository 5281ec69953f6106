/**
 * RFC 3339 timestamps that never go back, even when the system clock is set back. Runs
 * changing in the same millisecond share it: the store moves each run's `updated_at` past
 * its last one (`SqlDialect.nextStamp`), so a burst of changes keeps the wall clock's time.
 */
export class MonotonicClock {
  private last = 0;

  now(): string {
    const ms = Math.max(Date.now(), this.last);
    this.last = ms;
    return new Date(ms).toISOString();
  }
}
