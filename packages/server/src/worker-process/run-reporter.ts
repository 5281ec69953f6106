import type { HarnessState } from '../executors/run-executor.js';
import type { WorkerReportRequest } from '../workers/worker-protocol.js';
import { sendUnderLease, type LeaseView, type SendResult } from './send-under-lease.js';
import type { WorkerConnection } from './worker-connection.js';

type Line = NonNullable<WorkerReportRequest['output']>[number];

/** Lines in one report, at most (the protocol's bound). */
const MAX_LINES = 10_000;
/** Text in one report, at most: well under any server's body limit. */
const MAX_BYTES = 512 * 1024;

export interface ReporterOptions {
  connection: WorkerConnection;
  runId: string;
  claim: string;
  instanceId: string;
  lease: LeaseView;
  /** A report came back 409, or the lease ran out while it was retried. */
  onLost(reason: string): void;
  log(line: string): void;
}

/**
 * What one run's agent prints and its harness state, on their way to the server: one report
 * in flight at a time, what comes meanwhile gathered into the next, in order. A line sent
 * when nothing is in flight leaves at once.
 */
export class RunReporter {
  private lines: Line[] = [];
  private state: HarnessState | undefined;
  /** Resolved once the harness state they wait on was sent (or the run given up). */
  private stateWaiters: (() => void)[] = [];
  private sending = false;
  private idleWaiters: (() => void)[] = [];
  private stopped = false;

  constructor(private readonly options: ReporterOptions) {}

  output(stream: 'stdout' | 'stderr', text: string): void {
    if (this.stopped || text === '') return;
    this.lines.push({ stream, text });
    this.kick();
  }

  /** Resolves once the state is with the server (or the run was given up). */
  harnessState(state: HarnessState): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.state = { ...this.state, ...state };
    const sent = new Promise<void>((resolve) => this.stateWaiters.push(resolve));
    this.kick();
    return sent;
  }

  /** Resolves once everything given so far was sent (or the run was given up). */
  flush(): Promise<void> {
    if (this.stopped || (!this.sending && this.lines.length === 0 && !this.state)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Sends nothing more: the run was given up. */
  stop(): void {
    this.stopped = true;
    this.lines = [];
    this.state = undefined;
    this.settle();
  }

  private settle(): void {
    for (const resolve of this.stateWaiters.splice(0)) resolve();
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private kick(): void {
    if (this.sending || this.stopped) return;
    if (this.lines.length === 0 && !this.state) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    this.sending = true;
    void this.sendNext().finally(() => {
      this.sending = false;
      this.kick();
    });
  }

  private async sendNext(): Promise<void> {
    const { connection, runId, claim, instanceId, lease } = this.options;
    let bytes = 0;
    let count = 0;
    while (count < this.lines.length && count < MAX_LINES && (count === 0 || bytes + this.lines[count]!.text.length <= MAX_BYTES)) {
      bytes += this.lines[count]!.text.length;
      count++;
    }
    const output = this.lines.splice(0, count);
    const state = this.state;
    this.state = undefined;
    const waiters = this.stateWaiters.splice(0);
    const body: WorkerReportRequest = {
      instance_id: instanceId,
      claim,
      ...(output.length ? { output } : {}),
      ...(state
        ? {
            harness_state: {
              ...(state.requestUsage ? { request_usage: state.requestUsage } : {}),
              ...(state.harnessSessionId ? { harness_session_id: state.harnessSessionId } : {}),
            },
          }
        : {}),
    };
    let result: SendResult;
    try {
      result = await sendUnderLease(connection, `runs/${encodeURIComponent(runId)}/report`, body, lease);
    } catch (error) {
      result = { kind: 'refused', reason: (error as Error).message };
    }
    for (const resolve of waiters) resolve();
    if (result.kind === 'lost') this.options.onLost(result.reason);
    else if (result.kind === 'refused') this.options.log(`Run ${runId}: the server refused its output (${result.reason}); it is dropped.`);
  }
}
