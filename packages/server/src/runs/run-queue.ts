import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { ExecutionInput, FollowupMessage } from '../executors/execution-input.js';
import type { Execution, ExecutionOutcome, RunExecutor } from '../executors/run-executor.js';
import type { RunRecord } from '../store/run-record.js';
import type { RunStore } from '../store/run-store.js';
import type { ExecutionJournal } from './execution-journal.js';
import type { MonotonicClock } from './monotonic-clock.js';
import type { Peers } from './peers.js';
import type { RunEventLog } from './run-event-log.js';

interface Active {
  execution: Execution;
  input: ExecutionInput;
}

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 10_000;

/** Where this server takes its work: who it is to the store, and its runs' lease. */
export interface QueueOwner {
  /** This server's id, recorded on the runs it claims. */
  id: string;
  leaseMs: number;
}

/**
 * Executes the runs it claims from the store, the one queued longest first, at most
 * `concurrency` at once. The store hands each run to one claimer only, so any number of
 * servers may share it; each claims only when it has a free slot.
 */
export class RunQueue {
  private readonly active = new Map<string, Active>();
  /** Runs claimed whose execution is being prepared; those in `dropped` were cancelled meanwhile. */
  private readonly preparing = new Set<string>();
  private readonly dropped = new Set<string>();
  /** Follow-ups that came while the run's execution was prepared: handed to it once it starts. */
  private readonly early = new Map<string, FollowupMessage[]>();
  /** Runs claimed whose execution is being prepared, and the claim under way. */
  private starting = 0;
  private claiming = false;
  /** A run was queued while a claim was under way: claim again even if that one found nothing. */
  private claimAgain = false;
  private stopped = false;
  /** Set while a failed store write is waited out before the queue tries again. */
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = 0;
  /** Outcomes of finished runs whose writing failed, retried until the store takes them. */
  private readonly unrecorded = new Map<string, ExecutionOutcome>();

  constructor(
    private readonly store: RunStore,
    private readonly executor: RunExecutor,
    private readonly clock: MonotonicClock,
    private readonly concurrency: number,
    private readonly log: (line: string) => void,
    private readonly journal: ExecutionJournal,
    private readonly events: RunEventLog,
    private readonly owner: QueueOwner,
    private readonly peers: Peers,
  ) {}

  /** Whether a new run would have to wait for a slot here. */
  get atCapacity(): boolean {
    return this.active.size + this.starting >= this.concurrency;
  }

  /** A run became QUEUED (created, or taken on by a follow-up): this server or another claims it. */
  runQueued(): void {
    this.pump();
    this.peers.publish({ kind: 'queued' });
  }

  /** Whether this server executes the run now (or prepares to). */
  isActive(runId: string): boolean {
    return this.active.has(runId) || this.preparing.has(runId);
  }

  /** The runs this server executes now. */
  activeRunIds(): string[] {
    return [...this.active.keys()];
  }

  /** Hands a follow-up to the run's execution in progress; false when none can take it now. */
  deliver(runId: string, followup: FollowupMessage): boolean {
    if (this.preparing.has(runId)) {
      this.early.set(runId, [...(this.early.get(runId) ?? []), followup]);
      return true;
    }
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
    if (this.preparing.has(runId)) {
      // Not started yet: it is not started at all.
      this.dropped.add(runId);
      return true;
    }
    const active = this.active.get(runId);
    if (!active) return false;
    this.active.delete(runId);
    try {
      await active.execution.cancel();
    } catch (error) {
      this.log(`Could not stop the work of run ${runId}: ${(error as Error).message}`);
    }
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
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    // A last try for outcomes the store refused; what still fails is marked at the next start.
    await Promise.all([...this.unrecorded].map(([id, outcome]) => this.record(id, outcome).catch(() => {})));
    await Promise.all(
      [...this.active.keys(), ...this.preparing].map(async (id) => {
        await this.abandon(id);
        const run = await this.store.transition(id, { from: ['INPROGRESS'], to: 'FAILED', at: this.clock.now(), statusMessage: message });
        if (run) this.events.runChanged(run);
      }),
    );
  }

  /** Claims queued runs while slots are free (also called by the periodic check, for runs queued elsewhere). */
  pump(): void {
    if (this.stopped || this.retryTimer) return; // After a failed write, the retry pumps again.
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    if (this.active.size + this.starting >= this.concurrency) return;
    this.claiming = true;
    this.claimAgain = false;
    this.starting++;
    this.store.claimNext(this.owner.id, this.clock.now(), this.owner.leaseMs).then(
      async (run) => {
        this.claiming = false;
        this.storeWorks();
        if (!run) {
          this.starting--;
          if (this.claimAgain) this.pump();
          return;
        }
        this.events.runChanged(run);
        if (this.stopped) {
          // Claimed as the server stopped: back in line for the next server.
          await this.store.transition(run.id, { from: ['INPROGRESS'], to: 'QUEUED', at: this.clock.now() }).catch(() => undefined);
          this.starting--;
          return;
        }
        this.pump(); // The next slot, while this run is prepared.
        await this.start(run);
        this.starting--;
        this.pump();
      },
      (error: unknown) => {
        this.claiming = false;
        this.starting--;
        // The runs stay QUEUED in the store: claimed again once it takes writes.
        this.storeFailed('Could not claim a queued run', error);
      },
    );
  }

  private async start(run: RunRecord): Promise<void> {
    this.preparing.add(run.id);
    try {
      await this.prepareAndStart(run);
    } finally {
      this.preparing.delete(run.id);
      this.dropped.delete(run.id);
      this.early.delete(run.id);
    }
  }

  private async prepareAndStart(run: RunRecord): Promise<void> {
    let execution: Execution;
    let input: ExecutionInput;
    let stillInProgress: boolean;
    try {
      input = await this.journal.prepare(run);
      // A cancel that came after the claim but before the run was listed as preparing found it
      // not active here: the store tells (one read per execution, after which `dropped` holds).
      stillInProgress = (await this.store.get(run.id))?.state === 'INPROGRESS';
      // A follow-up's output goes on after what earlier executions printed, in the same log.
      if (input.number > 1) this.events.output(run.id, 'stdout', `[agent-runs] Execution ${input.number}, answering ${input.followups.length || 'no'} follow-up(s).\n`);
    } catch (error) {
      this.log(`Could not prepare run ${run.id}: ${(error as Error).message}`);
      await this.store
        .transition(run.id, {
          from: ['INPROGRESS'],
          to: 'ERROR',
          at: this.clock.now(),
          statusMessage: { message: `The run could not be prepared: ${(error as Error).message}`, error_code: 'internal_error', retryable: true },
        })
        .then((failed) => failed && this.events.runChanged(failed))
        .catch((failed: unknown) => this.log(`Could not record that run ${run.id} failed to start: ${(failed as Error).message}`));
      return;
    }
    if (this.dropped.has(run.id) || !stillInProgress) {
      // Cancelled while it was prepared: the conversation still ends this execution.
      await this.journal
        .record(run.id, input, { state: 'CANCELLED', statusMessage: { message: 'The execution was stopped.' } })
        .catch((error: unknown) => this.log(`Could not record the stop of run ${run.id}: ${(error as Error).message}`));
      return;
    }
    try {
      execution = this.executor.start({ run, input, onOutput: (text, stream = 'stdout') => this.events.output(run.id, stream, text) });
    } catch (error) {
      void this.finish(run.id, undefined, input, {
        state: 'ERROR',
        statusMessage: { message: `The ${this.executor.name} executor could not start: ${(error as Error).message}`, error_code: 'internal_error', retryable: true },
      });
      return;
    }
    const active: Active = { execution, input };
    this.active.set(run.id, active);
    this.preparing.delete(run.id);
    // Those the preparation already read into the execution's input are not sent twice.
    const given = new Set(input.followups.map((f) => f.id));
    for (const followup of this.early.get(run.id) ?? []) if (!given.has(followup.id)) this.deliver(run.id, followup);
    if (execution.processGroup) {
      this.store.setProcessGroup(run.id, execution.processGroup).catch((error: unknown) => {
        this.log(`Could not record the process group of run ${run.id}: ${(error as Error).message}`);
      });
    }
    execution.done.then(
      (outcome) => this.finish(run.id, active, input, outcome),
      (error: unknown) =>
        this.finish(run.id, active, input, {
          state: 'ERROR',
          statusMessage: { message: `The ${this.executor.name} executor failed: ${(error as Error).message}`, error_code: 'internal_error', retryable: true },
        }),
    );
  }

  private async finish(
    runId: string,
    active: Active | undefined,
    input: ExecutionInput,
    outcome: ExecutionOutcome,
  ): Promise<void> {
    // A cancelled or abandoned run was already taken out; its late outcome is ignored.
    if (active && this.active.get(runId) !== active) return;
    this.active.delete(runId);
    try {
      await this.journal.record(runId, input, outcome);
    } catch (error) {
      // What it made is lost, but its state must still be recorded.
      this.log(`Could not record what run ${runId} made: ${(error as Error).message}`);
    }
    try {
      await this.record(runId, outcome);
      this.storeWorks();
    } catch (error) {
      // Kept and written again later: a run must not stay INPROGRESS with nothing running it.
      this.unrecorded.set(runId, outcome);
      this.storeFailed(`Could not record the end of run ${runId}`, error);
      return;
    }
    await this.requeueIfPending(runId);
    this.pump();
  }

  /** Follow-ups that came while it ran and that it did not take start the next execution. */
  private async requeueIfPending(runId: string): Promise<void> {
    if (!this.stopped && (await this.journal.requeueIfPending(runId).catch(() => false))) this.runQueued();
  }

  private async record(runId: string, outcome: ExecutionOutcome): Promise<void> {
    const run = await this.store.transition(runId, {
      from: ['INPROGRESS'],
      to: outcome.state,
      at: this.clock.now(),
      statusMessage: outcome.statusMessage ?? null,
    });
    this.unrecorded.delete(runId);
    if (run) this.events.runChanged(run);
  }

  /** A store write failed: log it, and try again after a delay that grows to 10 s. */
  private storeFailed(what: string, error: unknown): void {
    this.log(`${what}: ${(error as Error).message}; trying again shortly.`);
    if (this.stopped || this.retryTimer) return;
    this.retryDelayMs = Math.min(Math.max(RETRY_MIN_MS, this.retryDelayMs * 2), RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.retry();
    }, this.retryDelayMs);
  }

  private storeWorks(): void {
    if (this.retryDelayMs > 0) this.log('The store takes writes again; the queue goes on.');
    this.retryDelayMs = 0;
  }

  private async retry(): Promise<void> {
    for (const [id, outcome] of [...this.unrecorded]) {
      try {
        await this.record(id, outcome);
        this.storeWorks();
      } catch (error) {
        this.storeFailed(`Could not record the end of run ${id}`, error);
        return;
      }
      await this.requeueIfPending(id);
    }
    this.pump();
  }
}
