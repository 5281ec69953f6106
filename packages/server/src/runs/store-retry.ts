import { Backoff } from '../domain/backoff.js';
import type { ExecutionOutcome } from '../executors/run-executor.js';
import type { RunMoves } from './run-moves.js';


export interface StoreRetryOptions {
  moves: RunMoves;
  log: (line: string) => void;
  /** A run's end was written on a retry (its follow-ups may queue it again). */
  written: (runId: string) => Promise<void>;
  /** The retries are done: the queue goes on claiming. */
  resume: () => void;
}

/** An execution's outcome, to be written under the claim it ran (`RunTransition.claim`). */
interface RunEnd {
  outcome: ExecutionOutcome;
  claim: string | null;
}

/**
 * The queue's writes the store refused: the ends of runs, kept and written again, and the
 * wait after any failed write (growing to 10 s) during which the queue claims nothing.
 */
export class StoreRetry {
  /** Ends of runs whose writing failed, retried until the store takes them. */
  private readonly unrecorded = new Map<string, RunEnd>();
  private timer: NodeJS.Timeout | undefined;
  private readonly backoff = new Backoff({ firstMs: 250, maxMs: 10_000 });
  private stopped = false;

  constructor(private readonly options: StoreRetryOptions) {}

  /** Whether a failed write is being waited out. */
  get waiting(): boolean {
    return this.timer !== undefined;
  }

  /**
   * Records the run's end under the claim its execution had (none changes a run claimed
   * again since); false when the store refused it (it is then kept and written again later).
   */
  async recordEnd(runId: string, outcome: ExecutionOutcome, claim: string | null): Promise<boolean> {
    try {
      await this.record(runId, { outcome, claim });
      this.works();
      return true;
    } catch (error) {
      // Kept and written again later: a run must not stay INPROGRESS with nothing running it.
      this.unrecorded.set(runId, { outcome, claim });
      this.failed(`Could not record the end of run ${runId}`, error);
      return false;
    }
  }

  /** A store write failed: log it, and try again after a delay that grows to 10 s. */
  failed(what: string, error: unknown): void {
    this.options.log(`${what}: ${(error as Error).message}; trying again shortly.`);
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.retry();
    }, this.backoff.next());
  }

  /** A store write succeeded: the next failure waits the shortest delay again. */
  works(): void {
    if (this.backoff.failing) this.options.log('The store takes writes again; the queue goes on.');
    this.backoff.reset();
  }

  /** Stops retrying after one last try of the ends still unwritten; what still fails is marked at the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.all([...this.unrecorded].map(([id, end]) => this.record(id, end).catch(() => {})));
  }

  private async record(runId: string, { outcome, claim }: RunEnd): Promise<void> {
    await this.options.moves.finish(runId, outcome, claim);
    this.unrecorded.delete(runId);
  }

  private async retry(): Promise<void> {
    for (const [id, end] of [...this.unrecorded]) {
      try {
        await this.record(id, end);
        this.works();
      } catch (error) {
        this.failed(`Could not record the end of run ${id}`, error);
        return;
      }
      await this.options.written(id);
    }
    this.options.resume();
  }
}
