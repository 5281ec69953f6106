/** RFC 3339 timestamps that strictly increase, so `updated_at` changes on every transition. */
export class MonotonicClock {
  private last = 0;

  now(): string {
    const ms = Math.max(Date.now(), this.last + 1);
    this.last = ms;
    return new Date(ms).toISOString();
  }
}
