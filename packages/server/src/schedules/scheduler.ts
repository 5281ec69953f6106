import type { ScheduleFiring } from './schedule-firing.js';

/**
 * Checks for due schedules every `intervalMs` (and once at start, which catches up ticks
 * missed while the server was down). Checks never overlap; stop() waits for one under way.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

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
      .catch((error: unknown) => this.log(`Could not check schedules: ${(error as Error).message}`))
      .finally(() => {
        this.running = undefined;
      });
  }
}
