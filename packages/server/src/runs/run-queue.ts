import type { PrincipalQuotas } from './principal-quotas.js';
import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { FollowupMessage } from '../executors/execution-input.js';
import type { ExecutionOutcome, RunExecutor } from '../executors/run-executor.js';
import type { PublishChanges } from '../pull-requests/run-pull-requests.js';
import type { RunStore } from '../store/runs/run-store.js';
import type { ExecutionJournal } from './execution-journal.js';
import type { MonotonicClock } from './monotonic-clock.js';
import { NO_PEERS, type Peers } from './peers.js';
import type { RunEventLog } from './run-event-log.js';
import type { RunMoves } from './run-moves.js';
import { RunExecutions, type RunExecutionsOptions } from './run-executions.js';
import { StoreRetry } from './store-retry.js';

/**
 * Beyond a lease, how long an execution waits for the previous one's result on another server:
 * a lost cancel signal is noticed there within a third of a lease, and its agent's process group
 * ends within its kill grace (2 s) and about a second more. Past it, that server is taken as dead.
 */
const PREVIOUS_MARGIN_MS = 10_000;

/** Where this server takes its work: who it is to the store, and its runs' lease. */
export interface QueueOwner {
  /** This server's id, recorded on the runs it claims. */
  id: string;
  leaseMs: number;
}

export interface RunQueueOptions {
  store: RunStore;
  moves: RunMoves;
  executor: RunExecutor;
  clock: MonotonicClock;
  /** Runs executed at once, at most. */
  concurrency: number;
  log: (line: string) => void;
  journal: ExecutionJournal;
  events: RunEventLog;
  owner: QueueOwner;
  peers: Peers;
  /** This server runs no agent itself (`--workers-only`): its queue claims nothing, workers take every run. */
  claimsNothing?: boolean;
  /** What a SUCCEEDED execution's changes become before its end is recorded. */
  publish?: PublishChanges | undefined;
  /** The principals' quotas: a run whose principal's daily spend reached its cap is stopped (BLOCKED). */
  quotas?: PrincipalQuotas | undefined;
  /** Where agents reach this server, and the run tokens their executions get. */
  agentApi?: RunExecutionsOptions['agentApi'];
}

/**
 * Executes the runs it claims from the store, the one queued longest first, at most
 * `concurrency` at once. The store hands each run to one claimer only, so any number of
 * servers may share it; each claims only when it has a free slot.
 */
export class RunQueue {
  private readonly executions: RunExecutions;
  private readonly retry: StoreRetry;
  /** Runs claimed whose execution is being prepared, and the claim under way. */
  private starting = 0;
  private claiming = false;
  /** A run was queued while a claim was under way: claim again even if that one found nothing. */
  private claimAgain = false;
  private stopped = false;
  /** Told when a run is queued, here or on a peer (the workers' waiting polls). */
  private readonly queuedListeners: (() => void)[] = [];

  constructor(private readonly options: RunQueueOptions) {
    const { store, moves, executor, clock, journal, events, log } = options;
    this.retry = new StoreRetry({
      moves,
      log,
      written: (runId) => this.requeueIfPending(runId),
      resume: () => this.pump(),
    });
    this.executions = new RunExecutions({
      store,
      executor,
      clock,
      journal,
      events,
      log,
      server: options.owner.id,
      previousBoundMs: options.peers === NO_PEERS ? undefined : options.owner.leaseMs + PREVIOUS_MARGIN_MS,
      ended: (runId, outcome, claim) => this.ended(runId, outcome, claim),
      freed: () => this.pump(),
      publish: options.publish,
      spendStop: options.quotas ? (run) => options.quotas!.spendStop(run.creator.uid) : undefined,
      agentApi: options.agentApi,
    });
  }

  /** Whether a new run would have to wait for a slot here. */
  get atCapacity(): boolean {
    return this.executions.running + this.starting >= this.options.concurrency;
  }

  /** A run became QUEUED (created, or taken on by a follow-up): this server or another claims it. */
  runQueued(): void {
    this.pump();
    this.queuedElsewhere();
    this.options.peers.publish({ kind: 'queued' });
  }

  /** A peer queued a run: the listeners look for it too. */
  queuedElsewhere(): void {
    for (const listener of this.queuedListeners) listener();
  }

  /** Calls `listener` whenever a run is queued, here or on a peer. */
  onQueued(listener: () => void): void {
    this.queuedListeners.push(listener);
  }

  /** Whether this server executes the run now (or prepares to). */
  isActive(runId: string): boolean {
    return this.executions.has(runId);
  }

  /** The runs this server executes now. */
  activeRunIds(): string[] {
    return this.executions.runningIds();
  }

  /** Hands a follow-up to the run's execution in progress; false when none can take it now. */
  deliver(runId: string, followup: FollowupMessage): boolean {
    return this.executions.deliver(runId, followup);
  }

  /** Resolves once an execution of the run taken away here is gone and its stop recorded. */
  settled(runId: string): Promise<void> {
    return this.executions.settled(runId);
  }

  /** The run's server died with its execution (its lease ran out): the conversation ends that execution. */
  executionLost(runId: string, message: string): Promise<void> {
    return this.options.journal.endLost(runId, message);
  }

  /** Takes the work of an active run away: stops it without recording its outcome as the run's state (`cancelled`: what it made is kept). */
  abandon(runId: string, cancelled = false): Promise<boolean> {
    return this.executions.abandon(runId, cancelled);
  }

  /** Stops taking work and stops what runs, marking each with `message`. */
  async stop(message: RunStatusMessage): Promise<void> {
    const { moves } = this.options;
    this.stopped = true;
    await this.retry.stop();
    await Promise.all(
      this.executions.allIds().map(async (id) => {
        // Under the claim it ran: a run claimed again elsewhere since is not this server's to fail.
        const claim = this.executions.claimOf(id) ?? null;
        await this.executions.abandon(id);
        await moves.fail(id, message, claim);
      }),
    );
  }

  /** Claims queued runs while slots are free (also called by the periodic check, for runs queued elsewhere). */
  pump(): void {
    if (this.stopped || this.retry.waiting || this.options.claimsNothing) return; // After a failed write, the retry pumps again.
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    if (this.atCapacity) return;
    const { moves, owner } = this.options;
    this.claiming = true;
    this.claimAgain = false;
    this.starting++;
    moves.claim(owner.id, owner.leaseMs).then(
      async (run) => {
        this.claiming = false;
        this.retry.works();
        if (!run) {
          this.starting--;
          if (this.claimAgain) this.pump();
          return;
        }
        if (this.stopped) {
          // Claimed as the server stopped: back in line for the next server (unless claimed again since).
          await moves.release(run.id, run.startedAt).catch(() => undefined);
          this.starting--;
          return;
        }
        this.pump(); // The next slot, while this run is prepared.
        await this.executions.start(run);
        this.starting--;
        this.pump();
      },
      (error: unknown) => {
        this.claiming = false;
        this.starting--;
        // The runs stay QUEUED in the store: claimed again once it takes writes.
        this.retry.failed('Could not claim a queued run', error);
      },
    );
  }

  /** An execution ended: its outcome becomes the run's state, then the slot takes the next run. */
  private async ended(runId: string, outcome: ExecutionOutcome, claim: string | null): Promise<void> {
    if (!(await this.retry.recordEnd(runId, outcome, claim))) return;
    await this.requeueIfPending(runId);
    this.pump();
  }

  /** Follow-ups that came while it ran and that it did not take start the next execution. */
  private async requeueIfPending(runId: string): Promise<void> {
    if (!this.stopped && (await this.options.journal.requeueIfPending(runId).catch(() => false))) this.runQueued();
  }
}
