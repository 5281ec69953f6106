/** The longest delay a Node timer takes (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A deadline of one attempt: `expire` runs once it passes, unless it was cleared first. */
interface Deadline {
  at: number;
  expire: () => void;
}

/**
 * Every attempt's deadline on one timer, armed for the earliest. A request that ends in
 * time only leaves the set: no timer is made or cleared per request (most end long before
 * their deadline), and a timer left armed for a deadline no longer pending just re-arms for
 * the next when it fires.
 */
class AttemptDeadlines {
  private readonly pending = new Set<Deadline>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  /** A deadline `ms` from now (at once for a negative or NaN `ms`, never for Infinity). */
  add(ms: number, expire: () => void): Deadline {
    const deadline = { at: performance.now() + (ms > 0 ? ms : 0), expire };
    this.pending.add(deadline);
    if (deadline.at < this.timerAt) this.arm(deadline.at);
    return deadline;
  }

  clear(deadline: Deadline): void {
    this.pending.delete(deadline);
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.timerAt = at;
    // A deadline further off than a timer reaches is armed for as far as it does, then again.
    this.timer = setTimeout(this.fire, Math.min(MAX_TIMER_MS, Math.max(0, at - performance.now())));
    // The request's socket keeps the process alive while it waits, not this timer.
    this.timer.unref();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const deadline of this.pending) {
      if (deadline.at <= now) {
        this.pending.delete(deadline);
        deadline.expire();
      } else if (deadline.at < next) {
        next = deadline.at;
      }
    }
    if (next < Infinity && next < this.timerAt) this.arm(next);
  };
}

/** The deadlines of every client in this process. */
export const attemptDeadlines = new AttemptDeadlines();
