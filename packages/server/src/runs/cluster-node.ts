import type { RunStatusMessage } from '@agent-runs/core/contract';
import { IGNORE_LEASE_LOSSES, type LeaseLosses } from '../domain/lease-losses.js';
import type { ClusterSignal, ClusterStore } from '../store/cluster.js';
import type { FollowupService } from './followup-service.js';
import type { MonotonicClock } from './monotonic-clock.js';
import type { Peers } from './peers.js';
import type { RunEventLog } from './run-event-log.js';
import type { RunQueue } from './run-queue.js';
import type { RemoteRuns } from './remote-runs.js';
import { isWorkerOwner, lostWorkerMessage, workerHostOf } from '../workers/worker-owner.js';

/** A lease is renewed, and expired ones looked for, this many times per lease. */
const CHECKS_PER_LEASE = 3;
/**
 * A run changed this long ago whose log does not show it is taken as one a dead server
 * left unlogged, and logged; a live server logs a change well within it.
 */
const UNLOGGED_AFTER_MS = 10_000;
/** How far back a server starting looks for such runs. */
const UNLOGGED_LOOKBACK_MS = 5 * 60_000;
const UNLOGGED_BATCH = 500;

/** Why a run whose server stopped renewing its lease ended FAILED. */
export function lostServerMessage(owner: string | null): RunStatusMessage {
  // A self-hosted worker's lease: named as the worker it is.
  if (isWorkerOwner(owner)) return lostWorkerMessage(owner);
  return {
    message: `The server executing this run${owner ? ` (${owner})` : ''} stopped renewing its lease, so it is taken as dead and the run's outcome is unknown; start a new run.`,
    error_code: 'internal_error',
    retryable: true,
  };
}

interface Parts {
  queue: RunQueue;
  /** The self-hosted workers this server talks to. */
  workers?: RemoteRuns;
  events: RunEventLog;
  followups: FollowupService;
  /** The mailbox: a message to a run executed here, sent through another server. */
  messages?: { deliverHere(runId: string, messageId: string): Promise<void> };
}

/**
 * This server as one of several on a shared database. Every `leaseMs / 3` it renews the
 * lease on the runs it executes (letting go of any cancelled or expired meanwhile),
 * fails the runs of servers whose lease ran out, and claims queued runs it missed a
 * signal for. Signals from the others reach the queue (queued runs, cancels), the
 * follow-ups (for runs executed here) and the streams (events stored elsewhere).
 */
export class ClusterNode implements Peers {
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private parts: Parts | undefined;
  /** Runs updated up to here were checked for a log that does not show them. */
  private loggedThrough = new Date(Date.now() - UNLOGGED_LOOKBACK_MS).toISOString();

  constructor(
    private readonly cluster: ClusterStore,
    readonly serverId: string,
    private readonly leaseMs: number,
    private readonly clock: MonotonicClock,
    private readonly log: (line: string) => void,
    /** Told of each worker's run failed here because the worker's lease ran out. */
    private readonly leaseLost: LeaseLosses = IGNORE_LEASE_LOSSES,
  ) {}

  publish(signal: ClusterSignal): void {
    this.cluster.signals.publish(signal).catch((error: unknown) => {
      this.log(`Could not signal the other servers (${signal.kind}): ${(error as Error).message}`);
    });
  }

  start(parts: Parts): void {
    this.parts = parts;
    this.cluster.signals.subscribe((signal) => this.receive(signal));
    this.cluster.signals.onReconnect(() => {
      parts.events.streams.wakeAll();
      parts.queue.pump();
    });
    this.timer = setInterval(() => this.check(), Math.max(10, Math.floor(this.leaseMs / CHECKS_PER_LEASE)));
    this.timer.unref();
    this.check();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.checking;
  }

  private receive(signal: ClusterSignal): void {
    const parts = this.parts!;
    switch (signal.kind) {
      case 'queued':
        parts.queue.queuedElsewhere();
        return parts.queue.pump();
      case 'events':
        return parts.events.streams.storedElsewhere(signal.runId);
      case 'cancel':
        // Nothing to do unless this server executes (or prepares) the run.
        void parts.queue.abandon(signal.runId, true);
        parts.workers?.stop(signal.runId);
        return;
      case 'followup':
        parts.followups.deliverHere(signal.runId, signal.followupId).catch((error: unknown) => {
          this.log(`Could not hand follow-up ${signal.followupId} to run ${signal.runId}: ${(error as Error).message}`);
        });
        return;
      case 'message':
        parts.messages?.deliverHere(signal.runId, signal.messageId).catch((error: unknown) => {
          this.log(`Could not hand message ${signal.messageId} to run ${signal.runId}: ${(error as Error).message}`);
        });
    }
  }

  private check(): void {
    if (this.checking || !this.timer) return;
    this.checking = this.checkNow()
      .catch((error: unknown) => this.log(`Could not renew this server's leases: ${(error as Error).message}`))
      .finally(() => {
        this.checking = undefined;
      });
  }

  private async checkNow(): Promise<void> {
    const { queue, events } = this.parts!;
    // Taken before renewing: a run claimed after the renewal is not mistaken for one let go.
    const executing = queue.activeRunIds();
    const held = new Set(await this.cluster.leases.renew(this.serverId, this.leaseMs));
    // Cancelled (a lost signal) or expired (this server was cut off too long): stop the work.
    for (const id of executing) {
      if (!held.has(id)) void queue.abandon(id);
    }
    // The workers whose leases ran out, told once the runs' failures are committed.
    const lostWorkers: string[] = [];
    const expired = await this.cluster.leases.expire((owner) => {
      if (owner && isWorkerOwner(owner)) lostWorkers.push(workerHostOf(owner));
      return lostServerMessage(owner);
    }, this.clock.now());
    for (const host of lostWorkers) this.leaseLost(host);
    for (const run of expired) {
      this.log(`Run ${run.id} ended FAILED: the server executing it stopped renewing its lease.`);
      void events.runChanged(run);
      // No result will come from that server: a follow-up's execution does not wait for one.
      await queue.executionLost(run.id, run.statusMessage?.message ?? lostServerMessage(null).message).catch((error: unknown) => {
        this.log(`Could not end the lost execution of run ${run.id}: ${(error as Error).message}`);
      });
    }
    await this.logUnlogged();
    queue.pump();
  }

  /** Streams must see every run's end, also when the server that ended it died before logging it. */
  private async logUnlogged(): Promise<void> {
    const through = new Date(Date.now() - UNLOGGED_AFTER_MS).toISOString();
    if (through <= this.loggedThrough) return;
    const runs = await this.cluster.leases.unlogged(this.loggedThrough, through, UNLOGGED_BATCH);
    // The log keeps a run's version once, so servers repairing the same run at once add one event.
    for (const run of runs) void this.parts!.events.runChanged(run);
    this.loggedThrough = runs.length === UNLOGGED_BATCH ? runs.at(-1)!.updatedAt : through;
  }
}
