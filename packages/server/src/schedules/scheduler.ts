import type { ScheduleFiring } from './schedule-firing.js';

/**
 * Checks for due schedules every `intervalMs` (and once at start, which catches up ticks
 * missed while the server was down). Checks never overlap; stop() waits for one under way.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Checks failing in a row (the store away): only the first is logged. */
  private failing = false;

  constructor(
    private readonly firing: ScheduleFiring,
    private readonly intervalMs: number,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.check(), this.intervalMs);
    this.timer.unref();
    this.check();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private check(): void {
    if (this.running) return;
    this.running = this.firing
      .fireDue()
      .then(
        () => {
          if (this.failing) this.log('Schedules are checked again.');
          this.failing = false;
        },
        (error: unknown) => {
          if (!this.failing) this.log(`Could not check schedules: ${(error as Error).message}; trying every ${this.intervalMs} ms.`);
          this.failing = true;
        },
      )
      .finally(() => {
        this.running = undefined;
      });
  }
}
