import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Backoff } from '../domain/backoff.js';
import type { RunExecutor } from '../executors/run-executor.js';
import {
  POLL_WAIT_MS,
  WorkerConnectResponseSchema,
  WorkerPollResponseSchema,
  type WorkerAssignment,
  type WorkerCommand,
  type WorkerConnectRequest,
  type WorkerFinishRequest,
  type WorkerPollRequest,
} from '../workers/worker-protocol.js';
import { fromWire, WireFormatError } from '../workers/worker-wire.js';
import { NoAnswerError, problemText, type WorkerAnswer, type WorkerConnection } from './worker-connection.js';
import type { WorkerMetrics } from './worker-metrics.js';
import { sendUnderLease } from './send-under-lease.js';
import type { WorkDirKeeper } from './work-dir-keeper.js';
import type { ReadBudget } from './sealed-budget.js';
import { assignedStart, followedStart, leaseMargin, WorkerRun, type RunHost, type RunStart } from './worker-run.js';

/** How often each run's lease is looked at: well inside the smallest margin (2 s). */
const LEASE_CHECK_MS = 100;
/** How long a poll may take beyond the wait the server said, before it counts as unanswered. */
const POLL_SLACK_MS = 15_000;
const RECONNECT = { firstMs: 250, maxMs: 30_000, jitter: 0.2 };

export interface PollLoopOptions {
  connection: WorkerConnection;
  executor: RunExecutor;
  metrics: WorkerMetrics;
  log(line: string): void;
  /** What connect announces. */
  announce: Omit<WorkerConnectRequest, 'version'>;
  /** Keeps the working directories of the runs ended here within a bound. */
  workDirs?: WorkDirKeeper;
  /**
   * Runs this instance was executing before it restarted that still run elsewhere (the
   * Kubernetes backend's Jobs): asked once, after the first connect and before the first
   * poll, which then names them so their leases are renewed rather than run out.
   */
  reattach?: (leaseMs: number) => Promise<ReattachedRun[]>;
}

/** A run followed again after a restart, under the claim it was given (its execution's `started_at`). */
export interface ReattachedRun {
  runId: string;
  claim: string;
  /** The budget its execution was started with, as the backend read it back. */
  budget: ReadBudget;
  /** How its execution is followed again, before the worker's executor holds it (`followedStart`). */
  start: RunStart;
}

/**
 * The worker's life with the server: connect (again after any outage), then poll in a loop,
 * each poll naming the runs held (renewing their leases) and the free slots, and starting
 * what it brings; draining takes no new run and keeps renewing until the held runs are over.
 */
export class PollLoop {
  private readonly runs = new Map<string, WorkerRun>();
  private leaseMs = 30_000;
  private pollWaitMs = POLL_WAIT_MS;
  private connected = false;
  private draining = false;
  /** Aborts a poll in flight, once nothing could come of it (draining, no runs). */
  private pollAbort: AbortController | undefined;
  private pollDraining = false;
  private saidDraining = false;
  /** The outage being logged, so it is said once, not once per try. */
  private outage: string | undefined;
  private readonly host: RunHost;
  private wake: (() => void) | undefined;
  private reattached = false;

  constructor(private readonly options: PollLoopOptions) {
    this.host = {
      connection: options.connection,
      executor: options.executor,
      instanceId: options.announce.instance_id,
      metrics: options.metrics,
      log: options.log,
      leaseMs: () => this.leaseMs,
      ended: (run) => {
        if (this.runs.get(run.runId) === run) this.runs.delete(run.runId);
        this.options.metrics.activeRuns.set(this.runs.size);
        void this.options.workDirs?.ended(run.runId, () => new Set(this.runs.keys()));
        this.maybeDone();
      },
    };
    options.metrics.capacity.set(options.announce.capacity);
  }

  /** Connected and answered, and not draining: what `/readyz` says. */
  get ready(): boolean {
    return this.connected && !this.draining;
  }

  get held(): number {
    return this.runs.size;
  }

  /** Runs until drained: resolves once draining and no run is held any more. */
  async run(): Promise<void> {
    const leaseWatch = setInterval(() => {
      const now = performance.now();
      for (const run of this.runs.values()) run.checkLease(now);
    }, LEASE_CHECK_MS);
    try {
      while (!this.done) {
        if (!this.connected) await this.connect();
        if (this.done) break;
        if (this.options.reattach && !this.reattached) await this.reattach();
        await this.pollOnce();
      }
    } finally {
      clearInterval(leaseWatch);
    }
  }

  /** SIGTERM: takes no new run; resolves `run()` once those held are over. */
  drain(): void {
    this.draining = true;
    this.maybeDone();
  }

  /** Stops every held run now (the drain ran out, or a second signal): each finishes FAILED, saying the worker shut down. */
  async shutdownRuns(): Promise<void> {
    await Promise.all([...this.runs.values()].map((run) => run.shutdown()));
  }

  /** Drained: draining, and every run it held is over. */
  private get done(): boolean {
    return this.draining && this.runs.size === 0;
  }

  private maybeDone(): void {
    if (!this.done) return;
    this.wake?.();
    // A poll sent while draining can bring no run: it may be cut short. One sent before is
    // waited for, since a run it brings was claimed for this worker; a second poll saying the
    // worker drains has the server answer it now instead of at the end of its wait.
    if (this.pollDraining) this.pollAbort?.abort();
    else if (this.pollAbort) this.sayDraining();
  }

  /** Tells the server this idle worker drains (once): its poll waiting for runs is answered empty. */
  private sayDraining(): void {
    if (this.saidDraining) return;
    this.saidDraining = true;
    const body: WorkerPollRequest = { instance_id: this.options.announce.instance_id, free_slots: 0, draining: true, runs: [] };
    // Best effort: without it, the waiting poll ends at its own time, as before.
    this.options.connection.post('poll', body).catch(() => undefined);
  }

  private async pause(ms: number): Promise<void> {
    await Promise.race([sleep(ms), new Promise<void>((resolve) => (this.wake = resolve))]);
    this.wake = undefined;
  }

  private noteOutage(reason: string, server = this.options.connection.server): void {
    this.connected = false;
    this.options.metrics.connected.set(0);
    if (this.outage === `${server} ${reason}`) return;
    this.outage = `${server} ${reason}`;
    this.options.log(`Cannot reach ${server} (${reason}); trying again.`);
  }

  private async connect(): Promise<void> {
    const backoff = new Backoff(RECONNECT);
    const body: WorkerConnectRequest = { ...this.options.announce, version: this.options.connection.version };
    while (!this.done) {
      let answer: WorkerAnswer | undefined;
      try {
        answer = await this.options.connection.post('connect', body);
      } catch (error) {
        if (!(error instanceof NoAnswerError)) throw error;
        this.noteOutage(error.message, error.server);
      }
      if (answer) {
        const parsed = answer.status >= 200 && answer.status < 300 ? WorkerConnectResponseSchema.safeParse(answer.body) : undefined;
        if (parsed?.success) {
          this.leaseMs = parsed.data.lease_ms;
          this.pollWaitMs = parsed.data.poll_wait_ms;
          this.connected = true;
          this.options.metrics.connected.set(1);
          this.outage = undefined;
          const { worker_host, instance_id, capacity } = this.options.announce;
          this.options.log(`Connected to ${this.options.connection.server} as ${worker_host} (instance ${instance_id}, ${capacity} slot(s), lease ${this.leaseMs} ms).`);
          return;
        }
        this.noteOutage(answer.status === 401 || answer.status === 403 ? `the server refused the worker token: ${problemText(answer)}` : `connect answered ${problemText(answer)}`);
      }
      await this.pause(backoff.next());
    }
  }

  private async pollOnce(): Promise<void> {
    const held = [...this.runs.values()].filter((run) => run.held);
    const body: WorkerPollRequest = {
      instance_id: this.options.announce.instance_id,
      free_slots: this.draining ? 0 : Math.max(0, this.options.announce.capacity - [...this.runs.values()].filter((run) => !run.finishing).length),
      draining: this.draining,
      runs: held.map((run) => ({ run_id: run.runId, claim: run.claim })),
    };
    const sentAt = performance.now();
    this.pollAbort = new AbortController();
    this.pollDraining = this.draining;
    let answer: WorkerAnswer;
    try {
      answer = await this.options.connection.post('poll', body, this.pollWaitMs + POLL_SLACK_MS, this.pollAbort.signal);
    } catch (error) {
      if (!(error instanceof NoAnswerError)) throw error;
      if (this.done) return;
      this.noteOutage(error.message, error.server);
      await this.pause(RECONNECT.firstMs);
      return;
    } finally {
      this.pollAbort = undefined;
    }
    const parsed = answer.status >= 200 && answer.status < 300 ? WorkerPollResponseSchema.safeParse(answer.body) : undefined;
    if (!parsed?.success) {
      // The server restarted and forgot this worker, or cannot answer now: connect again.
      this.noteOutage(parsed ? 'the poll answer was not understood' : `poll answered ${problemText(answer)}`);
      await this.pause(RECONNECT.firstMs);
      return;
    }
    const { assignments, commands, renewed, lease_ms } = parsed.data;
    this.leaseMs = lease_ms;
    const renewedIds = new Set(renewed);
    for (const run of held) {
      if (renewedIds.has(run.runId)) run.renewed(sentAt);
      // Let go by its finish, which landed before this answer came.
      else if (!run.finishing) run.loseLease('the server did not renew its lease');
    }
    // Runs first: a command may name a run this same answer brings.
    for (const assignment of assignments) this.take(assignment, sentAt);
    for (const command of commands) this.command(command);
    this.options.metrics.activeRuns.set(this.runs.size);
  }

  private command(command: WorkerCommand): void {
    const run = this.runs.get(command.run_id);
    if (!run) return;
    if (command.kind === 'cancel') {
      this.options.log(`Run ${run.runId}: cancel received.`);
      void run.cancel();
    } else run.deliver(command.followup);
  }

  private take(assignment: WorkerAssignment, sentAt: number): void {
    let wire;
    try {
      wire = fromWire(assignment);
    } catch (error) {
      if (!(error instanceof WireFormatError)) throw error;
      this.options.log(`Run ${assignment.run.id}: the assignment could not be read (${error.message}).`);
      this.refuse(assignment, sentAt, error.message);
      return;
    }
    if (this.runs.has(wire.run.id)) return;
    // The run token reaches the server that answered the poll, the one that minted it.
    const agentApi = wire.runToken ? { url: this.options.connection.server, token: wire.runToken } : undefined;
    const run = new WorkerRun(this.host, wire.claim, wire.run.id, assignedStart(this.options.executor, this.host.instanceId, { ...wire, agentApi }), sentAt);
    this.runs.set(run.runId, run);
    run.start();
  }

  /** Follows again what this instance ran before a restart; a failure to list is said and retried at the next poll. */
  private async reattach(): Promise<void> {
    let found: ReattachedRun[];
    try {
      found = await this.options.reattach!(this.leaseMs);
    } catch (error) {
      this.options.log(`Could not list the runs to follow again (${(error as Error).message}); trying again.`);
      await this.pause(RECONNECT.firstMs * 4);
      return;
    }
    this.reattached = true;
    const now = performance.now();
    for (const reattached of found) {
      const { runId, claim } = reattached;
      if (this.runs.has(runId)) continue;
      this.options.log(`Run ${runId}: followed again after a restart.`);
      // Its lease was last renewed by the process before this one: the next poll renews it, or says it is gone.
      const run = new WorkerRun(this.host, claim, runId, followedStart(this.options.executor, reattached), now);
      this.runs.set(runId, run);
      run.start();
    }
    this.options.metrics.activeRuns.set(this.runs.size);
  }

  /** Ends a run this worker cannot start at all (its assignment unreadable) ERROR, under its claim, rather than leave it to its lease. */
  private refuse(assignment: WorkerAssignment, sentAt: number, reason: string): void {
    const lease = { lost: false, leaseHolds: () => performance.now() < sentAt + this.leaseMs - leaseMargin(this.leaseMs) };
    const body: WorkerFinishRequest = {
      instance_id: this.options.announce.instance_id,
      claim: assignment.claim,
      execution: assignment.input.number,
      state: 'ERROR',
      status_message: { message: `The worker could not read the run's assignment: ${reason}.`, error_code: 'internal_error', retryable: true },
    };
    void sendUnderLease(this.options.connection, `runs/${encodeURIComponent(assignment.run.id)}/finish`, body, lease).catch(() => undefined);
  }
}
