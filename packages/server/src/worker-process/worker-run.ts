import { performance } from 'node:perf_hooks';
import type { FollowupMessage } from '../executors/execution-input.js';
import type { Execution, ExecutionContext, ExecutionOutcome, ExecutionSinks, RunExecutor } from '../executors/run-executor.js';
import type { WorkerFinishRequest, WorkerGiveBackRequest } from '../workers/worker-protocol.js';
import { artifactsToWire, type WorkspaceSource } from '../workers/worker-wire.js';
import { RunReporter } from './run-reporter.js';
import { sendUnderLease, type LeaseView } from './send-under-lease.js';
import type { WorkerConnection } from './worker-connection.js';
import type { WorkerMetrics } from './worker-metrics.js';
import type { ReattachedRun } from './poll-loop.js';

/** What the worker gives each of its runs. */
export interface RunHost {
  connection: WorkerConnection;
  executor: RunExecutor;
  instanceId: string;
  metrics: WorkerMetrics;
  log(line: string): void;
  /** The lease the server grants, as it last said. */
  leaseMs(): number;
  /** The run is over here: its agent stopped and its end answered (or given up); its slot is free. */
  ended(run: WorkerRun): void;
}

/** Where a run's execution sends what its agent prints and its harness state (and, to the run's budget, its usage as it comes). */
export type RunSinks = ExecutionSinks;

/**
 * How a run's execution begins here: the executor started on its assignment, or (the
 * Kubernetes backend after a restart) an execution already running elsewhere, followed again,
 * or one whose start the restart found unfinished, undone and given back (`giveBack`).
 */
export type RunStart = {
  /** The run's execution number, which its finish names. */
  execution: number;
  /** Named in the run's status when it cannot start. */
  executorName: string;
  /** A line said first in the run's output (a follow-up's execution says what it answers). */
  preface?: string;
} & ({ begin(sinks: RunSinks): Execution; giveBack?: undefined } | { giveBack(): Promise<GiveBack>; begin?: undefined });

/** An execution whose agent never started, what its start left undone: the run goes back to the server's line instead of ending. */
export interface GiveBack {
  /** Why, said in the run's output. */
  reason: string;
  /** How the run ends instead when the server cannot take it back (older than this worker). */
  fallback: ExecutionOutcome;
}

/** The start of an execution assigned by the server: the worker's executor on the run and its input. */
export function assignedStart(
  executor: RunExecutor,
  instanceId: string,
  wire: Pick<ExecutionContext, 'run' | 'input'> & { workspace?: WorkspaceSource | undefined; agentApi?: ExecutionContext['agentApi'] | undefined },
): RunStart {
  const { run, input, workspace, agentApi } = wire;
  return {
    execution: input.number,
    executorName: executor.name,
    // A follow-up's output goes on after what earlier executions printed, as on the server.
    ...(input.number > 1 ? { preface: `[agent-runs] Execution ${input.number}, answering ${input.followups.length || 'no'} follow-up(s).\n` } : {}),
    begin: (sinks) =>
      executor.start({ run, input, ...sinks, ...(agentApi ? { agentApi } : {}), ...(workspace ? { restore: { ranOn: workspace.ranOn, here: instanceId, patches: workspace.patches } } : {}) }),
  };
}

/**
 * The start of an execution a restarted worker follows again: through the worker's executor,
 * as an assigned one starts, so that it is held to the run's budget (its wall time from the
 * execution's `started_at`, the run's claim) as it was before the restart. One whose budget
 * cannot be read back as this worker sealed it is stopped rather than followed unbounded.
 */
export function followedStart(executor: RunExecutor, reattached: ReattachedRun): RunStart {
  const { start, budget, claim } = reattached;
  // Nothing runs, so there is nothing to hold to a budget.
  if (start.giveBack) return start;
  if (!budget.sealed) return { ...start, begin: (sinks) => stoppedUnsealed(start.begin(sinks)) };
  // A claim is the server's ISO time (its clock, which a worker's is assumed close to); one that is not (never so) counts from now.
  const startedAt = Date.parse(claim);
  const { begin } = start;
  return {
    ...start,
    begin: (sinks) =>
      executor.followAgain
        ? executor.followAgain({ budget: budget.budget, startedAt: Number.isNaN(startedAt) ? Date.now() : startedAt, sinks, begin })
        : begin(sinks),
  };
}

/** An execution followed again only to stop its agent: its run ends FAILED, saying why. */
function stoppedUnsealed(execution: Execution): Execution {
  const outcome: ExecutionOutcome = {
    state: 'FAILED',
    statusMessage: {
      message: "The worker restarted and found no budget it had recorded for the run where its execution runs (missing, or not sealed by this worker): its agent was stopped rather than followed without the run's caps.",
      retryable: true,
    },
  };
  return { done: execution.cancel().then(() => outcome, () => outcome), cancel: async () => {} };
}

type Ending = { kind: 'outcome'; outcome: ExecutionOutcome } | { kind: 'cancelled' } | { kind: 'shutdown' } | { kind: 'give-back'; back: GiveBack };

/**
 * The margin a run's agent is stopped by before its lease would run out: the larger of 2 s
 * and a fifth of the lease, so the agent is gone before the server may give the run to
 * another worker; but never more than a third of the lease, so that the renewal of a poll
 * lost on its way (the server answers one holding runs within a sixth of the lease) and of
 * its retry still come in time, with a short `--lease` too.
 */
export const leaseMargin = (leaseMs: number): number => Math.min(Math.max(2_000, leaseMs / 5), leaseMs / 3);

/**
 * One run executed on this worker, from its assignment to its finish: the executor started
 * on it, its output reported, commands (cancel, follow-up) passed on, its lease watched. It
 * is fenced: once its lease was not renewed in time or the server said it gave it up (409),
 * its agent stops and nothing more is sent for it.
 */
export class WorkerRun implements LeaseView {
  private renewedAt: number;
  private execution: Execution | undefined;
  private ending = false;
  private finishSent = false;
  private lostReason: string | undefined;
  private readonly reporter: RunReporter;
  /** Settles once the run is over here. */
  readonly over: Promise<void>;
  private markOver!: () => void;

  constructor(
    private readonly host: RunHost,
    readonly claim: string,
    readonly runId: string,
    private readonly how: RunStart,
    /** When the poll that brought it was sent: its lease runs from no earlier. */
    heldSince: number,
  ) {
    this.renewedAt = heldSince;
    this.over = new Promise((resolve) => (this.markOver = resolve));
    this.reporter = new RunReporter({
      connection: host.connection,
      runId,
      claim,
      instanceId: host.instanceId,
      lease: this,
      onLost: (reason) => this.loseLease(reason),
      log: host.log,
    });
  }

  get lost(): boolean {
    return this.lostReason !== undefined;
  }

  /**
   * Its finish is on its way: its agent is over, so its slot is free (the server answers the
   * poll waiting then, for the worker to ask for the next run at once), and a poll that finds
   * its lease let go (the finish landed) is not a lost lease.
   */
  get finishing(): boolean {
    return this.finishSent;
  }

  /** Whether polls should still name it (and renew its lease): it is not given up. */
  get held(): boolean {
    return !this.lost;
  }

  leaseHolds(now = performance.now()): boolean {
    const lease = this.host.leaseMs();
    return now < this.renewedAt + lease - leaseMargin(lease);
  }

  /** A poll sent at `sentAt` renewed the lease. */
  renewed(sentAt: number): void {
    if (sentAt > this.renewedAt) this.renewedAt = sentAt;
  }

  /** Stops the agent if the lease was not renewed in time (called often by the worker). */
  checkLease(now = performance.now()): void {
    if (!this.lost && !this.leaseHolds(now)) this.loseLease(`its lease was not renewed within ${this.host.leaseMs()} ms less a margin`);
  }

  start(): void {
    const { log } = this.host;
    const { executorName: name, execution, preface } = this.how;
    log(`Run ${this.runId}: taken (execution ${execution}).`);
    if (this.how.giveBack) {
      void this.how.giveBack().then(
        (back) => this.end({ kind: 'give-back', back }),
        (error: unknown) =>
          this.end({
            kind: 'outcome',
            outcome: { state: 'ERROR', statusMessage: { message: `The ${name} executor could not undo an unfinished start: ${(error as Error).message}`, error_code: 'internal_error', retryable: true } },
          }),
      );
      return;
    }
    if (preface) this.reporter.output('stdout', preface);
    try {
      this.execution = this.how.begin({
        onOutput: (text, stream = 'stdout') => this.reporter.output(stream, text),
        onHarnessState: (state) => this.reporter.harnessState(state),
      });
    } catch (error) {
      void this.end({
        kind: 'outcome',
        outcome: { state: 'ERROR', statusMessage: { message: `The ${name} executor could not start: ${(error as Error).message}`, error_code: 'internal_error', retryable: true } },
      });
      return;
    }
    this.execution.done.then(
      (outcome) => this.end({ kind: 'outcome', outcome }),
      (error: unknown) =>
        this.end({
          kind: 'outcome',
          outcome: { state: 'ERROR', statusMessage: { message: `The ${name} executor failed: ${(error as Error).message}`, error_code: 'internal_error', retryable: true } },
        }),
    );
  }

  /** Hands a follow-up to the running agent. */
  deliver(followup: FollowupMessage): void {
    if (this.ending || this.lost) return;
    let taken = false;
    try {
      taken = this.execution?.deliver?.(followup) ?? false;
    } catch (error) {
      this.host.log(`Run ${this.runId}: could not hand a follow-up to the agent: ${(error as Error).message}`);
    }
    if (!taken) this.host.log(`Run ${this.runId}: its agent could not take follow-up ${followup.id} now.`);
  }

  /** The server's cancel: the agent stops, and the run finishes CANCELLED. */
  cancel(): Promise<void> {
    return this.end({ kind: 'cancelled' });
  }

  /** The worker shuts down (its drain ran out, or a second signal): the agent stops, and the run finishes FAILED saying so. */
  shutdown(): Promise<void> {
    return this.end({ kind: 'shutdown' });
  }

  /** The lease is gone: the agent stops, and nothing more is sent for the run. */
  loseLease(reason: string): void {
    if (this.lost) return;
    this.lostReason = reason;
    this.reporter.stop();
    this.host.metrics.leasesLost.inc();
    this.host.log(`Run ${this.runId}: lease lost (${reason}); its agent is stopped and nothing more is sent for it.`);
    if (!this.ending) {
      this.ending = true;
      void this.stopAgent().then(() => this.close());
    }
  }

  private async stopAgent(): Promise<void> {
    try {
      await this.execution?.cancel();
    } catch (error) {
      this.host.log(`Run ${this.runId}: could not stop its agent: ${(error as Error).message}`);
    }
  }

  private async end(ending: Ending): Promise<void> {
    if (this.ending) return this.over;
    this.ending = true;
    if (ending.kind !== 'outcome') await this.stopAgent();
    // Everything it printed reaches the server before its end does.
    await this.reporter.flush();
    if (this.lost) return this.close();
    if (ending.kind === 'give-back' && (await this.giveBack(ending.back))) return this.close();
    const finish = this.finishRequest(ending.kind === 'give-back' ? { kind: 'outcome', outcome: ending.back.fallback } : ending);
    this.finishSent = true;
    const result = await sendUnderLease(this.host.connection, `runs/${encodeURIComponent(this.runId)}/finish`, finish, this).catch((error: unknown) => ({
      kind: 'refused' as const,
      reason: (error as Error).message,
    }));
    if (result.kind === 'taken') {
      this.host.metrics.runsFinished.inc({ outcome: finish.state });
      this.host.log(`Run ${this.runId}: ended ${finish.state}.`);
    } else if (result.kind === 'lost') this.loseLease(result.reason);
    else this.host.log(`Run ${this.runId}: the server refused its end (${result.reason}).`);
    this.close();
  }

  /**
   * Asks the server to queue the run again, its execution ended unstarted. False when it
   * would not (a server older than this worker has no such endpoint: 404), and the run is
   * finished instead; a 409 (the lease gone, a give-back sent before) is done.
   */
  private async giveBack(back: GiveBack): Promise<boolean> {
    const { log } = this.host;
    const body: WorkerGiveBackRequest = { instance_id: this.host.instanceId, claim: this.claim, execution: this.how.execution, reason: back.reason };
    // Its slot is free from now, and a poll that finds its lease let go is not a lost lease.
    this.finishSent = true;
    const result = await sendUnderLease(this.host.connection, `runs/${encodeURIComponent(this.runId)}/give-back`, body, this).catch((error: unknown) => ({
      kind: 'refused' as const,
      reason: (error as Error).message,
      status: undefined,
    }));
    if (result.kind === 'taken') log(`Run ${this.runId}: given back to the server, queued again (${back.reason}).`);
    else if (result.kind === 'lost') log(`Run ${this.runId}: not given back, the server had let it go already (${result.reason}).`);
    else {
      const why = result.status === 404 ? 'the server has no give-back, older than this worker' : `the server refused it: ${result.reason}`;
      log(`Run ${this.runId}: could not give it back (${why}); it ends ${back.fallback.state} instead.`);
      return false;
    }
    return true;
  }

  private finishRequest(ending: Exclude<Ending, { kind: 'give-back' }>): WorkerFinishRequest {
    const base = { instance_id: this.host.instanceId, claim: this.claim, execution: this.how.execution };
    if (ending.kind === 'cancelled') return { ...base, state: 'CANCELLED' };
    if (ending.kind === 'shutdown') {
      return { ...base, state: 'FAILED', status_message: { message: `The worker ${this.host.instanceId} shut down before the run ended.`, error_code: 'internal_error', retryable: true } };
    }
    const { outcome } = ending;
    return {
      ...base,
      state: outcome.state,
      ...(outcome.statusMessage ? { status_message: outcome.statusMessage } : {}),
      ...(outcome.artifacts?.length ? { artifacts: artifactsToWire(outcome.artifacts) } : {}),
      ...(outcome.takenFollowups?.length ? { taken_followups: outcome.takenFollowups } : {}),
    };
  }

  private closed = false;
  private close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.lost) this.host.log(`Run ${this.runId}: stopped (lease lost).`);
    this.host.ended(this);
    this.markOver();
  }
}
