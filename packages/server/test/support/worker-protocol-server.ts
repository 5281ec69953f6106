import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ExecutionInput } from '../../src/executors/execution-input.js';
import type { RunRecord } from '../../src/store/runs/run-record.js';
import {
  WorkerConnectRequestSchema,
  WorkerFinishRequestSchema,
  WorkerPollRequestSchema,
  WorkerReportRequestSchema,
  type WorkerCommand,
  type WorkerConnectRequest,
  type WorkerFinishRequest,
  type WorkerPollRequest,
  type WorkerReportRequest,
} from '../../src/workers/worker-protocol.js';
import { toWire } from '../../src/workers/worker-wire.js';

/** A report or finish as it reached the server, with when (performance.now()) and what it was answered. */
export interface Received<T> {
  at: number;
  body: T;
  status: number;
}

interface Lease {
  claim: string;
  renewedAt: number;
  /** Given up: not renewed any more, and every report or finish under it answered 409. */
  gone: boolean;
}

/**
 * The server's half of the worker protocol, kept to what the protocol says (every body
 * parsed with its schema, leases given up once not renewed within `leaseMs`, 409 after),
 * for the worker's own tests: what it sent and when, and leases a test can withhold.
 */
export class WorkerProtocolServer {
  readonly connects: WorkerConnectRequest[] = [];
  readonly polls: Received<WorkerPollRequest>[] = [];
  readonly reports = new Map<string, Received<WorkerReportRequest>[]>();
  readonly finishes = new Map<string, Received<WorkerFinishRequest>[]>();
  /** Requests whose body did not match the protocol: a test expects none. */
  readonly malformed: string[] = [];
  private readonly pending: { run: RunRecord; input: ExecutionInput }[] = [];
  private readonly commands: WorkerCommand[] = [];
  private readonly leases = new Map<string, Lease>();
  private readonly withheld = new Set<string>();
  private wakePoll: (() => void) | undefined;
  private claims = 0;
  private server!: Server;
  url = '';
  /** How long each report waits before it is answered (a slow server): what comes meanwhile must be gathered into the next. */
  reportDelayMs = 0;
  /** Reports being answered at once, and the most ever: one run's are never more than one. */
  private reportsInFlight = 0;
  maxReportsInFlight = 0;

  constructor(
    readonly token: string,
    readonly leaseMs: number,
    readonly pollWaitMs: number,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.wakePoll?.();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Queues a run for the next poll with a free slot. */
  assign(run: RunRecord, input: ExecutionInput): void {
    this.pending.push({ run, input });
    this.wakePoll?.();
  }

  command(command: WorkerCommand): void {
    this.commands.push(command);
    this.wakePoll?.();
  }

  /** The run's lease is renewed no more (as when the server lost touch with the worker). */
  withhold(runId: string): void {
    this.withheld.add(runId);
  }

  /** The lease the server gave up on its own: its claim is fenced off. */
  expired(runId: string): boolean {
    return this.lease(runId)?.gone ?? false;
  }

  reportsOf(runId: string): Received<WorkerReportRequest>[] {
    return this.reports.get(runId) ?? [];
  }

  finishesOf(runId: string): Received<WorkerFinishRequest>[] {
    return this.finishes.get(runId) ?? [];
  }

  /** The run's output as the server took it (reports answered 200), in order. */
  outputOf(runId: string): string {
    return this.reportsOf(runId)
      .filter((r) => r.status === 200)
      .flatMap((r) => r.body.output ?? [])
      .map((line) => line.text)
      .join('');
  }

  private lease(runId: string): Lease | undefined {
    const lease = this.leases.get(runId);
    if (lease && !lease.gone && performance.now() > lease.renewedAt + this.leaseMs) lease.gone = true;
    return lease;
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    if (req.headers.authorization !== `Bearer ${this.token}`) return { status: 401, body: { title: 'Unauthorized' } };
    let text = '';
    for await (const chunk of req) text += chunk;
    const json = JSON.parse(text) as unknown;
    const path = req.url ?? '';
    if (path === '/api/v1/workers/connect') {
      const parsed = WorkerConnectRequestSchema.safeParse(json);
      if (!parsed.success) return this.bad(path);
      this.connects.push(parsed.data);
      return { status: 200, body: { lease_ms: this.leaseMs, poll_wait_ms: this.pollWaitMs, takes_unrouted: false, server_version: 'test' } };
    }
    if (path === '/api/v1/workers/poll') {
      const parsed = WorkerPollRequestSchema.safeParse(json);
      if (!parsed.success) return this.bad(path);
      return { status: 200, body: await this.poll(parsed.data) };
    }
    const match = /^\/api\/v1\/workers\/runs\/([^/]+)\/(report|finish)$/.exec(path);
    if (!match) return { status: 404, body: {} };
    const runId = decodeURIComponent(match[1]!);
    const at = performance.now();
    const lease = this.lease(runId);
    if (match[2] === 'report') {
      const parsed = WorkerReportRequestSchema.safeParse(json);
      if (!parsed.success) return this.bad(path);
      this.maxReportsInFlight = Math.max(this.maxReportsInFlight, ++this.reportsInFlight);
      await new Promise((resolve) => setTimeout(resolve, this.reportDelayMs));
      this.reportsInFlight--;
      const status = lease && !lease.gone && lease.claim === parsed.data.claim ? 200 : 409;
      this.reports.set(runId, [...this.reportsOf(runId), { at, body: parsed.data, status }]);
      return { status, body: status === 200 ? {} : { title: 'Conflict', detail: 'The lease on this run was given up.' } };
    }
    const parsed = WorkerFinishRequestSchema.safeParse(json);
    if (!parsed.success) return this.bad(path);
    const status = lease && !lease.gone && lease.claim === parsed.data.claim ? 200 : 409;
    this.finishes.set(runId, [...this.finishesOf(runId), { at, body: parsed.data, status }]);
    if (status === 200) this.leases.delete(runId);
    return { status, body: status === 200 ? {} : { title: 'Conflict', detail: 'The lease on this run was given up.' } };
  }

  private bad(path: string): { status: number; body: unknown } {
    this.malformed.push(path);
    return { status: 400, body: { title: 'Bad Request' } };
  }

  private async poll(request: WorkerPollRequest) {
    const at = performance.now();
    this.polls.push({ at, body: request, status: 200 });
    const renewed: string[] = [];
    for (const { run_id, claim } of request.runs) {
      const lease = this.lease(run_id);
      if (!lease || lease.gone || lease.claim !== claim || this.withheld.has(run_id)) continue;
      lease.renewedAt = at;
      renewed.push(run_id);
    }
    const ready = () => this.commands.length > 0 || (request.free_slots > 0 && this.pending.length > 0);
    if (!ready()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollWaitMs);
        this.wakePoll = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakePoll = undefined;
    }
    const assignments = this.pending.splice(0, request.draining ? 0 : request.free_slots).map(({ run, input }) => {
      const claim = `claim-${++this.claims}`;
      this.leases.set(run.id, { claim, renewedAt: performance.now(), gone: false });
      return toWire(claim, { ...run, state: 'INPROGRESS', startedAt: claim }, input);
    });
    return { assignments, commands: this.commands.splice(0), renewed, lease_ms: this.leaseMs };
  }
}
