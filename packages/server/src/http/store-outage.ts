import { ApiProblem } from './api-problem.js';

/** How soon a caller should try again while the database is away. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;
const PROBE_MS = 1000;

/**
 * The database being unreachable, as requests meet it: answered 503 with Retry-After, and
 * logged once when it starts and once when a probe finds it back, not once per request.
 */
export class StoreOutage {
  private since: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** Whether an error means the database cannot be reached now (the store knows its drivers' words). */
    private readonly isUnreachable: (error: unknown) => boolean,
    private readonly ping: () => Promise<void>,
    private readonly log: (line: string) => void,
  ) {}

  /** The problem to answer for `error` when it means the database is away; undefined otherwise. */
  problemFor(error: unknown): ApiProblem | undefined {
    if (!this.isUnreachable(error)) return undefined;
    this.begin(error as Error);
    return new ApiProblem('resource_unavailable', 'The database is unreachable; try again shortly.', {
      headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) },
    });
  }

  private begin(error: Error): void {
    if (this.since !== undefined) return;
    this.since = Date.now();
    this.log(`The database is unreachable (${error.message.split('\n')[0]!.slice(0, 200)}); requests get 503 until it returns.`);
    this.timer = setInterval(() => void this.probe(), PROBE_MS).unref();
  }

  private async probe(): Promise<void> {
    try {
      await this.ping();
    } catch {
      return;
    }
    if (this.since === undefined) return;
    this.log(`The database is reachable again after ${((Date.now() - this.since) / 1000).toFixed(1)} s.`);
    this.since = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Server shutdown: no more probes. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
