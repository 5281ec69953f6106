import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { Execution, ExecutionOutcome, RunExecutor } from '../executors/run-executor.js';
import type { RunRecord } from '../store/run-record.js';
import type { RunStore } from '../store/run-store.js';
import type { MonotonicClock } from './monotonic-clock.js';
import type { RunEvents } from './run-events.js';

interface Active {
  execution: Execution;
}

/** First in, first out; at most `concurrency` runs execute at once. */
export class RunQueue {
  private readonly waiting: string[] = [];
  private readonly active = new Map<string, Active>();
  /** Runs taken from `waiting` whose move to INPROGRESS is being written. */
  private starting = 0;
  private stopped = false;

  constructor(
    private readonly store: RunStore,
    private readonly executor: RunExecutor,
    private readonly clock: MonotonicClock,
    private readonly events: RunEvents,
    private readonly concurrency: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Whether a new run would have to wait for a slot. */
  get atCapacity(): boolean {
    return this.active.size + this.starting + this.waiting.length >= this.concurrency;
  }

  enqueue(runId: string): void {
    if (this.stopped) return;
    this.waiting.push(runId);
    this.pump();
  }

  /** Takes the work of an active run away: stops it without recording its outcome. */
  async abandon(runId: string): Promise<boolean> {
    const active = this.active.get(runId);
    if (!active) return false;
    this.active.delete(runId);
    await active.execution.cancel();
    this.pump();
    return true;
  }

  /** Stops taking work and stops what runs, marking each with `message`. */
  async stop(message: RunStatusMessage): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    await Promise.all(
      [...this.active.keys()].map(async (id) => {
        await this.abandon(id);
        const run = await this.store.transition(id, { from: ['INPROGRESS'], to: 'FAILED', at: this.clock.now(), statusMessage: message });
        if (run) this.events.runChanged(run);
      }),
    );
  }

  private pump(): void {
    while (!this.stopped && this.active.size + this.starting < this.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      this.starting++;
      const at = this.clock.now();
      this.store.transition(id, { from: ['QUEUED'], to: 'INPROGRESS', at, startedAt: at }).then(
        (run) => {
          this.starting--;
          if (run) this.events.runChanged(run);
          // Undefined: it was cancelled while waiting.
          if (run && !this.stopped) this.start(run);
          this.pump();
        },
        (error: unknown) => {
          this.starting--;
          this.log(`Could not start run ${id}: ${(error as Error).message}`);
          this.pump();
        },
      );
    }
  }

  private start(run: RunRecord): void {
    let execution: Execution;
    try {
      execution = this.executor.start({ run, onOutput: (text, stream = 'stdout') => this.events.output(run.id, stream, text) });
    } catch (error) {
      void this.finish(run.id, undefined, {
        state: 'ERROR',
        statusMessage: { message: `The ${this.executor.name} executor could not start: ${(error as Error).message}`, error_code: 'internal_error', retryable: true },
      });
      return;
    }
    const active: Active = { execution };
    this.active.set(run.id, active);
    execution.done.then(
      (outcome) => this.finish(run.id, active, outcome),
      (error: unknown) =>
        this.finish(run.id, active, {
          state: 'ERROR',
          statusMessage: { message: `The ${this.executor.name} executor failed: ${(error as Error).message}`, error_code: 'internal_error', retryable: true },
        }),
    );
  }

  private async finish(runId: string, active: Active | undefined, outcome: ExecutionOutcome): Promise<void> {
    // A cancelled or abandoned run was already taken out; its late outcome is ignored.
    if (active && this.active.get(runId) !== active) return;
    this.active.delete(runId);
    try {
      const run = await this.store.transition(runId, {
        from: ['INPROGRESS'],
        to: outcome.state,
        at: this.clock.now(),
        statusMessage: outcome.statusMessage ?? null,
      });
      if (run) this.events.runChanged(run);
    } catch (error) {
      this.log(`Could not record the end of run ${runId}: ${(error as Error).message}`);
    }
    this.pump();
  }
}
