import { TERMINAL_RUN_STATES, type RunStatusMessage } from '@agent-runs/core/contract';
import type { ExecutionOutcome } from '../executors/run-executor.js';
import type { RunRecord } from '../store/runs/run-record.js';
import { SERVER_HOSTS, type RunStore, type RunTransition, type WorkerHosts } from '../store/runs/run-store.js';
import type { MonotonicClock } from './monotonic-clock.js';

/** Where a move that changed a run is told (the run event log: streams, webhooks, pages). */
export interface RunChangeSink {
  runChanged(run: RunRecord): unknown;
}

/**
 * A run's state changes, each by its name, and the only caller of the store's `transition`.
 * Each move names the states it leaves, and the moves of an execution the claim it runs
 * under, so that of racing moves one changes the run and the others change nothing
 * (`undefined`). A move that changed the run tells the event log. Store errors are thrown:
 * the caller decides whether to retry (the queue keeps an unwritten end, see StoreRetry).
 *
 *   QUEUED ──claim──▶ INPROGRESS ──finish──▶ SUCCEEDED | FAILED | ERROR | BLOCKED
 *     ▲                 │  ├──fail─────────▶ FAILED    (the server stopped)
 *     ├────release──────┘  └──cancel───────▶ CANCELLED (also from QUEUED)
 *     └────requeue───── any terminal state (a follow-up)
 *
 * (`finish` also ends a run that could not be prepared, as ERROR.)
 */
export class RunMoves {
  constructor(
    private readonly store: RunStore,
    private readonly clock: MonotonicClock,
    private readonly events: RunChangeSink,
  ) {}

  /** QUEUED → INPROGRESS: the oldest queued run, claimed by `owner` under a lease of `leaseMs`. */
  async claim(owner: string, leaseMs: number): Promise<RunRecord | undefined> {
    return this.told(await this.store.claimNext(owner, this.clock.now(), leaseMs, SERVER_HOSTS));
  }

  /** QUEUED → INPROGRESS: the oldest queued run of `hosts`, claimed by a worker (`owner` its lease's name). */
  async claimFor(owner: string, leaseMs: number, hosts: WorkerHosts): Promise<RunRecord | undefined> {
    return this.told(await this.store.claimNext(owner, this.clock.now(), leaseMs, hosts));
  }

  /** INPROGRESS → the execution's outcome, under the claim it ran (none changes a run claimed again since). */
  finish(runId: string, outcome: ExecutionOutcome, claim: string | null): Promise<RunRecord | undefined> {
    return this.move(runId, { from: ['INPROGRESS'], to: outcome.state, statusMessage: outcome.statusMessage ?? null, claim });
  }

  /** INPROGRESS → FAILED: its execution was stopped with the server, under the claim it ran. */
  fail(runId: string, message: RunStatusMessage, claim: string | null): Promise<RunRecord | undefined> {
    return this.move(runId, { from: ['INPROGRESS'], to: 'FAILED', statusMessage: message, claim });
  }

  /** INPROGRESS → QUEUED: claimed as the server stopped, back in line for the next server. */
  release(runId: string, claim: string | null): Promise<RunRecord | undefined> {
    return this.move(runId, { from: ['INPROGRESS'], to: 'QUEUED', claim });
  }

  /** QUEUED or INPROGRESS → CANCELLED. */
  cancel(runId: string, message: RunStatusMessage): Promise<RunRecord | undefined> {
    return this.move(runId, { from: ['QUEUED', 'INPROGRESS'], to: 'CANCELLED', statusMessage: message });
  }

  /** A terminal run back to QUEUED, for an execution that answers its follow-ups. */
  requeue(runId: string): Promise<RunRecord | undefined> {
    return this.move(runId, { from: TERMINAL_RUN_STATES, to: 'QUEUED', statusMessage: null });
  }

  /** The run's `updated_at` moves, its state stays (a follow-up came while it was `state`). */
  touch(runId: string, state: RunRecord['state']): Promise<RunRecord | undefined> {
    return this.move(runId, { from: [state], to: state as RunTransition['to'] });
  }

  private async move(runId: string, change: Omit<RunTransition, 'at'>): Promise<RunRecord | undefined> {
    return this.told(await this.store.transition(runId, { ...change, at: this.clock.now() }));
  }

  private told(run: RunRecord | undefined): RunRecord | undefined {
    if (run) void this.events.runChanged(run);
    return run;
  }
}
