import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { ExecutionInput, FollowupMessage } from '../executors/execution-input.js';
import type { Execution, ExecutionOutcome, RunExecutor } from '../executors/run-executor.js';
import type { RunRecord } from '../store/run-record.js';
import type { RunStore } from '../store/run-store.js';
import type { ExecutionJournal } from './execution-journal.js';
import type { MonotonicClock } from './monotonic-clock.js';
import { OutputBuffer } from './output-buffer.js';

interface Active {
  execution: Execution;
  input: ExecutionInput;
  output: OutputBuffer;
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
    private readonly concurrency: number,
    private readonly log: (line: string) => void,
    private readonly journal: ExecutionJournal,
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

  /** Hands a follow-up to the run's execution in progress; false when none can take it now. */
  deliver(runId: string, followup: FollowupMessage): boolean {
    const active = this.active.get(runId);
    if (!active?.execution.deliver) return false;
    try {
      return active.execution.deliver(followup);
    } catch (error) {
      this.log(`Could not hand a follow-up to run ${runId}: ${(error as Error).message}`);
      return false;
    }
  }

  /** Takes the work of an active run away: stops it without recording its outcome as the run's state. */
  async abandon(runId: string): Promise<boolean> {
    const active = this.active.get(runId);
    if (!active) return false;
    this.active.delete(runId);
    await active.execution.cancel();
    active.output.flush();
    // The conversation still says the execution ended, so the next one gets a number (and files) of its own.
    await this.journal
      .record(runId, active.input, { state: 'CANCELLED', statusMessage: { message: 'The execution was stopped.' } })
      .catch((error: unknown) => this.log(`Could not record the stop of run ${runId}: ${(error as Error).message}`));
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
        await this.store.transition(id, { from: ['INPROGRESS'], to: 'FAILED', at: this.clock.now(), statusMessage: message });
      }),
    );
  }

  private pump(): void {
    while (!this.stopped && this.active.size + this.starting < this.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      this.starting++;
      const at = this.clock.now();
      this.store.transition(id, { from: ['QUEUED'], to: 'INPROGRESS', at, startedAt: at }).then(
        async (run) => {
          // Undefined: it was cancelled while waiting.
          if (run && !this.stopped) await this.start(run);
          this.starting--;
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

  private async start(run: RunRecord): Promise<void> {
    let execution: Execution;
    let input: ExecutionInput;
    let output: OutputBuffer;
    try {
      input = await this.journal.prepare(run);
      output = new OutputBuffer(this.store, run.id, input.number > 1 ? await this.store.getOutput(run.id) : '');
      if (input.number > 1) output.append(`[agent-runs] Execution ${input.number}, answering ${input.followups.length || 'no'} follow-up(s).\n`);
    } catch (error) {
      this.log(`Could not prepare run ${run.id}: ${(error as Error).message}`);
      await this.store.transition(run.id, {
        from: ['INPROGRESS'],
        to: 'ERROR',
        at: this.clock.now(),
        statusMessage: { message: `The run could not be prepared: ${(error as Error).message}`, error_code: 'internal_error', retryable: true },
      });
      return;
    }
    try {
      execution = this.executor.start({ run, input, onOutput: (text) => output.append(text) });
    } catch (error) {
      void this.finish(run.id, undefined, input, output, {
        state: 'ERROR',
        statusMessage: { message: `The ${this.executor.name} executor could not start: ${(error as Error).message}`, error_code: 'internal_error', retryable: true },
      });
      return;
    }
    const active: Active = { execution, input, output };
    this.active.set(run.id, active);
    execution.done.then(
      (outcome) => this.finish(run.id, active, input, output, outcome),
      (error: unknown) =>
        this.finish(run.id, active, input, output, {
          state: 'ERROR',
          statusMessage: { message: `The ${this.executor.name} executor failed: ${(error as Error).message}`, error_code: 'internal_error', retryable: true },
        }),
    );
  }

  private async finish(
    runId: string,
    active: Active | undefined,
    input: ExecutionInput,
    output: OutputBuffer,
    outcome: ExecutionOutcome,
  ): Promise<void> {
    // A cancelled or abandoned run was already taken out; its late outcome is ignored.
    if (active && this.active.get(runId) !== active) return;
    this.active.delete(runId);
    output.flush();
    try {
      await this.journal.record(runId, input, outcome);
    } catch (error) {
      this.log(`Could not record what run ${runId} made: ${(error as Error).message}`);
    }
    try {
      await this.store.transition(runId, {
        from: ['INPROGRESS'],
        to: outcome.state,
        at: this.clock.now(),
        statusMessage: outcome.statusMessage ?? null,
      });
    } catch (error) {
      this.log(`Could not record the end of run ${runId}: ${(error as Error).message}`);
    }
    // Follow-ups that came while it ran and that it did not take start the next execution.
    if (!this.stopped && (await this.journal.requeueIfPending(runId).catch(() => false))) this.enqueue(runId);
    this.pump();
  }
}
