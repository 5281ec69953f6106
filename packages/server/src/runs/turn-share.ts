/**
 * Lets at most `perTurn` pieces of work start in one turn of the event loop; the rest start
 * in later turns, `perTurn` at a time. A burst (a thousand runs ending at once) then leaves
 * the loop free for I/O between its parts, so requests and webhook deliveries are not held
 * behind the whole burst.
 */
export class TurnShare {
  private started = 0;
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  constructor(private readonly perTurn: number) {}

  /** Resolves when this piece of work may start: at once while the turn has room. */
  async take(): Promise<void> {
    this.schedule();
    if (this.started < this.perTurn && this.waiting.length === 0) {
      this.started += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate runs after the loop has polled for I/O, and one queued from it runs a turn later.
    setImmediate(() => {
      this.scheduled = false;
      const next = this.waiting.splice(0, this.perTurn);
      this.started = next.length;
      for (const resolve of next) resolve();
      if (this.waiting.length > 0 || next.length > 0) this.schedule();
    });
  }
}
