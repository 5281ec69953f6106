import type { ConnectedWorker, ConnectedWorkersResponse, RunStatusMessage } from '@agent-runs/core/contract';
import { ConflictError } from '../domain/domain-errors.js';
import type { LeaseLosses } from '../domain/lease-losses.js';
import type { FollowupMessage } from '../executors/execution-input.js';
import type { RemoteRuns, RunRoute } from '../runs/remote-runs.js';
import type { WorkerHosts } from '../store/runs/run-store.js';
import type { ConnectedWorkerStore } from '../store/workers/connected-worker-store.js';
import { lostWorkerMessage, isWorkerOwner, workerHostOf, workerOwner } from './worker-owner.js';
import {
  POLL_WAIT_MS,
  type WorkerAssignment,
  type WorkerConnectRequest,
  type WorkerConnectResponse,
  type WorkerFinishRequest,
  type WorkerGiveBackRequest,
  type WorkerPollRequest,
  type WorkerPollResponse,
  type WorkerReportRequest,
} from './worker-protocol.js';
import type { WorkerAvailability, WorkerRouting } from './worker-routing.js';
import { WorkerRunWrites, type WorkerRunWritesOptions } from './worker-run-writes.js';
import { toWire, type WorkspaceSource } from './worker-wire.js';

/** Waits `ms`, or until the poll's client goes away. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A poll writes its instance's row at most this often (unless what it runs changed). */
const HEARTBEAT_WRITE_MS = 5_000;
/** A follow-up waits at most this long for the worker instance holding its run's working directory (less with a short lease). */
const AFFINITY_MAX_MS = 5_000;
/** How soon a poll that left a run to the instance holding it looks at the queue again. */
const AFFINITY_RETRY_MS = 250;
/** A poll of a worker holding runs waits at most this fraction of the lease (see `poll`). */
const HELD_POLL_FRACTION = 6;

/** The token a worker's request carried: its name and the worker ids it may serve. */
export interface WorkerGrant {
  name: string;
  workerHosts: readonly string[];
}

/** A run given to a worker by a poll: what giving it back (the answer was not delivered) undoes. */
export interface GivenRun {
  runId: string;
  claim: string;
  execution: number;
}

export interface WorkerServiceOptions extends WorkerRunWritesOptions {
  /** The worker processes connected to any server of the database. */
  registry: ConnectedWorkerStore;
  routing: WorkerRouting;
  leaseMs: number;
  /** The server runs nothing itself: workers take the runs that name no worker_host too. */
  workersOnly: boolean;
  serverVersion: string;
  /** Whether this server fails the runs of workers whose lease ran out (SQLite; on PostgreSQL the cluster does). */
  expiresLeases: boolean;
  log: (line: string) => void;
  /** Told of each run failed because its worker's lease ran out. */
  leaseLost?: LeaseLosses;
  /** How long a poll waits at most (tests shorten it). */
  pollWaitMs?: number;
}

/**
 * The server's side of self-hosted workers: their connects and polls (lease renewals, runs
 * claimed for them, commands), and the reports and finishes of the runs they execute, each
 * fenced by the run's lease and claim. Also the `RemoteRuns` the run services reach them by.
 */
export class WorkerService implements RemoteRuns {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  /** The reports and finishes of the runs workers execute. */
  private readonly writes: WorkerRunWrites;

  constructor(private readonly o: WorkerServiceOptions) {
    this.writes = new WorkerRunWrites(o, async (grant, instanceId) => (await this.instance(grant, instanceId)).owner);
  }

  /** Starts failing runs of workers that stopped renewing their leases (where this server must). */
  start(): void {
    if (!this.o.expiresLeases || this.timer) return;
    this.timer = setInterval(() => void this.expireLost(), Math.max(10, Math.floor(this.o.leaseMs / 3)));
    this.timer.unref();
  }

  /** Answers the waiting polls now, takes no new work; the runs workers hold are left to them. */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.o.hub.close();
  }

  private get pollWaitMs(): number {
    return this.o.pollWaitMs ?? POLL_WAIT_MS;
  }

  async connect(grant: WorkerGrant, body: WorkerConnectRequest): Promise<WorkerConnectResponse> {
    const now = Date.now();
    const at = new Date(now).toISOString();
    const worker = {
        worker_host: body.worker_host,
        instance_id: body.instance_id,
        version: body.version,
        capacity: body.capacity,
        running_runs: 0,
        harnesses: body.harnesses,
        environments: body.environments,
        connected_at: at,
        last_heartbeat_at: at,
        draining: false,
    };
    await this.o.registry.put({ ...worker, token_name: grant.name });
    this.o.hub.connect(worker, grant.name, now);
    return { lease_ms: this.o.leaseMs, poll_wait_ms: this.pollWaitMs, takes_unrouted: this.o.workersOnly, server_version: this.o.serverVersion };
  }

  /** The connected instance of the poll or report, under the token it connected with (its connect may have reached another server). */
  private async instance(grant: WorkerGrant, instanceId: string): Promise<{ host: string; owner: string }> {
    let known = this.o.hub.get(instanceId);
    if (!known) {
      const stored = await this.o.registry.get(instanceId);
      if (stored) {
        const { token_name: tokenName, ...worker } = stored;
        this.o.hub.connect(worker, tokenName, Date.now());
        known = this.o.hub.get(instanceId);
      }
    }
    if (!known || known.tokenName !== grant.name) {
      throw new ConflictError(`The worker ${instanceId} is not connected to this server: connect first (POST /api/v1/workers/connect).`, true);
    }
    return { host: known.worker.worker_host, owner: workerOwner(known.worker.worker_host, instanceId) };
  }

  /**
   * Renews the leases of the runs the worker holds, then answers its commands, or runs
   * claimed for it, or (waiting for either up to the poll's wait) nothing. A run is claimed
   * only just before the answer; `gone` tells whether the worker is still there.
   */
  async poll(grant: WorkerGrant, body: WorkerPollRequest, signal: AbortSignal): Promise<{ answer: WorkerPollResponse; given: GivenRun[] }> {
    const { hub, store, leaseMs } = this.o;
    const { host, owner } = await this.instance(grant, body.instance_id);
    const claims = new Map(body.runs.map((r) => [r.run_id, r.claim]));
    const keys = [...claims.keys()];
    const kept = keys.length ? await store.leases.renew(owner, leaseMs, { keys }) : [];
    // Written at most every few seconds per instance (or when what it runs changes): an idle pool costs little.
    const due = hub.heard(body.instance_id, body.runs.length, body.draining, Date.now(), HEARTBEAT_WRITE_MS);
    if (due) await this.o.registry.put({ ...due.worker, token_name: due.tokenName });
    // Renewed only under the claim the worker runs it by: a run claimed again since is not its run any more.
    const current = await store.claimsOf(kept);
    const renewed = kept.filter((id) => claims.has(id) && current.get(id) === claims.get(id));
    for (const id of keys) if (!kept.includes(id)) hub.letGo(id);
    // Known here from now on, whichever server gave them (a restart, another server of the database): cancels and follow-ups find the instance.
    for (const id of renewed) hub.hold(id, body.instance_id);
    // A worker learns of a renewal only from the answer, and fences its runs by the poll that
    // renewed them: holding runs, it hears back within a sixth of the lease, so that one poll
    // lost (a server killed, a reset) and its retry still land well before its fence.
    // A draining instance holding nothing sends one poll to say so (see below): answered at once.
    const waitMs = body.runs.length ? Math.floor(leaseMs / HELD_POLL_FRACTION) : body.draining ? 0 : this.pollWaitMs;
    const deadline = Date.now() + waitMs;
    const freed = hub.freedCount(body.instance_id);
    const given: GivenRun[] = [];
    const assignments: WorkerAssignment[] = [];
    for (;;) {
      // Noted before it looks: a wake while the claim below awaits the database is not lost.
      const wakes = hub.wakeCount;
      if (hub.hasCommands(body.instance_id) || hub.isClosed || signal.aborted) break;
      // A run it held ended since: answered now, so that the slot is asked to be filled at once.
      if (hub.freedCount(body.instance_id) !== freed) break;
      // The instance drains since this poll came (its next poll said so): it takes no run, and
      // this poll, which waited for runs, is answered now so that an idle worker exits at once.
      if (!body.draining && hub.isDraining(body.instance_id)) break;
      let deferred = false;
      if (body.free_slots > 0 && !body.draining) {
        deferred = await this.claimFor(host, owner, body.instance_id, body.free_slots, given, assignments);
        if (given.length) break;
      }
      const left = deadline - Date.now();
      if (left <= 0) break;
      // A run left to the instance holding its working directory: looked at again shortly (the wake it caused is not for this poll).
      if (deferred) await pause(Math.min(left, AFFINITY_RETRY_MS), signal);
      else await hub.wait(body.instance_id, left, signal, wakes);
    }
    if (signal.aborted && given.length) {
      await this.giveBack(given);
      return { answer: { assignments: [], commands: [], renewed, lease_ms: leaseMs }, given: [] };
    }
    return { answer: { assignments, commands: hub.takeCommands(body.instance_id), renewed, lease_ms: leaseMs }, given };
  }

  /**
   * Claims up to `slots` queued runs of the worker's host (and unrouted ones, for a server
   * that runs none itself). True when it gave one back for the instance that holds its
   * working directory (see `leftToHolder`): the caller looks again shortly rather than wait.
   */
  private async claimFor(host: string, owner: string, instanceId: string, slots: number, given: GivenRun[], out: WorkerAssignment[]): Promise<boolean> {
    const { moves, journal, leaseMs, hub } = this.o;
    const hosts: WorkerHosts = this.o.workersOnly ? [host, ''] : [host, host];
    while (given.length < slots) {
      const run = await moves.claimFor(owner, leaseMs, hosts);
      if (!run) return false;
      const claim = run.startedAt!;
      const last = await journal.lastStart(run.id).catch(() => undefined);
      if (last && last.server !== owner && (await this.leftToHolder(run.id, last.server))) {
        await moves.release(run.id, claim).catch(() => undefined);
        this.o.runQueued();
        return true;
      }
      let input;
      try {
        input = await journal.prepare(run, owner);
      } catch (error) {
        this.o.log(`Could not prepare run ${run.id} for the worker ${instanceId}: ${(error as Error).message}`);
        await moves.finish(run.id, { state: 'ERROR', statusMessage: { message: 'The execution could not start.' } }, claim).catch(() => undefined);
        continue;
      }
      if (!input) continue; // Changed meanwhile (cancelled): not this worker's.
      // A follow-up: what the worker makes the working directory again from, if it does not have it (it ran
      // elsewhere, or this instance's start of it never reached it), whoever the conversation says ran it.
      const workspace = last && input.number > 1 ? await this.workspaceOf(run.id, last.server) : undefined;
      hub.hold(run.id, instanceId);
      given.push({ runId: run.id, claim, execution: input.number });
      // The agent's run token, as the server's own executions get one: it lives as long as this execution.
      out.push(toWire(claim, run, input, workspace, await this.o.runTokens?.mint(run.id, run.creator)));
    }
    return false;
  }

  /**
   * Whether a follow-up's execution waits for the worker instance that ran the run's last
   * execution (`lastOwner`, its lease owner), which holds its working directory: while that
   * instance is connected and not draining, for a bound from when the follow-up came. Past
   * it, or with that instance gone, any worker of the id takes the run and restores it.
   */
  private async leftToHolder(runId: string, lastOwner: string): Promise<boolean> {
    if (!isWorkerOwner(lastOwner)) return false;
    const since = await this.o.journal.waitingSince(runId).catch(() => undefined);
    if (since === undefined || Date.now() - Date.parse(since) >= this.affinityMs) return false;
    const instanceId = lastOwner.split('/')[2] ?? '';
    const heardSince = Date.parse(this.since());
    const known = this.o.hub.get(instanceId);
    if (known) return known.heardAt >= heardSince && !known.worker.draining;
    const stored = await this.o.registry.get(instanceId).catch(() => undefined);
    return stored !== undefined && Date.parse(stored.last_heartbeat_at) >= heardSince && !stored.draining;
  }

  /** How long a follow-up waits for the instance holding the run's working directory: a few seconds, well inside a lease. */
  private get affinityMs(): number {
    return Math.min(AFFINITY_MAX_MS, Math.floor(this.o.leaseMs / 3));
  }

  /** What a worker that did not run the last execution makes the working directory again from. */
  private async workspaceOf(runId: string, lastOwner: string): Promise<WorkspaceSource> {
    return { ranOn: isWorkerOwner(lastOwner) ? lastOwner.slice('worker/'.length) : lastOwner, patches: await this.o.journal.changesPatches(runId) };
  }

  /** Runs whose execution never started (an assignment that never reached the worker, or a worker's give-back): back in line, their executions ended unstarted. */
  async giveBack(given: readonly GivenRun[]): Promise<void> {
    for (const g of given) {
      await this.o.runTokens?.revoke(g.runId);
      this.o.hub.letGoUnstarted(g.runId);
      await this.o.journal.endUnstarted(g.runId, g.execution).catch(() => undefined);
      await this.o.moves.release(g.runId, g.claim).catch(() => undefined);
    }
    if (given.length) this.o.runQueued();
  }

  /**
   * A worker gives back a run it holds whose agent never started (its restart found the start
   * unfinished and undid it): under its claim and execution, as a finish is, then as a poll's
   * undelivered answer is given back, so that the run runs again rather than end with nothing run.
   */
  async giveBackRun(grant: WorkerGrant, runId: string, body: WorkerGiveBackRequest): Promise<void> {
    await this.writes.fencedExecution(grant, runId, body.instance_id, body.claim, body.execution);
    // The worker's words (one line, its schema says) reach the run's output, not the server's log.
    const why = body.reason?.trim();
    this.o.events.output(runId, 'stderr', `[agent-runs] The worker gave the run back before its agent started${why ? ` (${why})` : ''}: it is queued again.\n`);
    this.o.log(`Run ${runId}: the worker ${body.instance_id} gave execution ${body.execution} back before its agent started; queued again.`);
    await this.giveBack([{ runId, claim: body.claim, execution: body.execution }]);
    this.o.hub.slotFreed(body.instance_id);
  }

  async report(grant: WorkerGrant, runId: string, body: WorkerReportRequest): Promise<void> {
    await this.writes.report(grant, runId, body);
  }

  async finish(grant: WorkerGrant, runId: string, body: WorkerFinishRequest): Promise<void> {
    await this.writes.finish(grant, runId, body);
  }

  /** Fails the runs of workers whose lease ran out, and ends their executions in the conversation. */
  private async expireLost(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const expired = await this.o.store.leases.takeOverExpired(async (leases) => leases, undefined, isWorkerOwner);
      for (const { key: runId, owner } of expired) {
        const message = lostWorkerMessage(owner);
        this.o.hub.letGo(runId);
        await this.o.runTokens?.revoke(runId);
        const failed = await this.o.moves.fail(runId, message, null);
        if (!failed) continue;
        this.o.log(`Run ${runId} ended FAILED: its worker (${owner}) stopped renewing its lease.`);
        if (owner) this.o.leaseLost?.(workerHostOf(owner));
        await this.o.journal.endLost(runId, message.message);
      }
    } catch (error) {
      this.o.log(`Could not look for workers that stopped renewing their leases: ${(error as Error).message}`);
    } finally {
      this.checking = false;
    }
  }

  /** Since when an instance heard from counts as connected: within a lease, a poll's wait and a heartbeat write. */
  private since(): string {
    return new Date(Date.now() - this.o.leaseMs - this.pollWaitMs - HEARTBEAT_WRITE_MS).toISOString();
  }

  /** The connected instances, of every server of the database. */
  async connected(): Promise<ConnectedWorkersResponse> {
    const rows = await this.o.registry.heardSince(this.since());
    return { workers: rows.map(({ token_name: _token, ...worker }) => worker) };
  }

  /**
   * The workers of `host` heard from lately (by any server) and their free slots: the stored
   * rows (written every few seconds), with what this server heard since for its own pollers.
   */
  async availability(host: string): Promise<WorkerAvailability> {
    const since = this.since();
    const workers = new Map<string, ConnectedWorker>();
    for (const w of await this.o.registry.heardSince(since)) if (w.worker_host === host) workers.set(w.instance_id, w);
    for (const w of this.o.hub.heardSince(host, Date.parse(since))) workers.set(w.instance_id, w);
    let freeSlots = 0;
    for (const w of workers.values()) if (!w.draining) freeSlots += Math.max(0, w.capacity - w.running_runs);
    return { connected: workers.size > 0, freeSlots };
  }

  // RemoteRuns

  route(config: Parameters<WorkerRouting['route']>[0], field?: string): Promise<RunRoute> {
    return this.o.routing.route(config, field);
  }

  async onWorker(runId: string): Promise<boolean> {
    return isWorkerOwner((await this.o.store.leases.holder(runId)) ?? null);
  }

  async cancelled(runId: string, message: RunStatusMessage): Promise<void> {
    this.stop(runId);
    // Its stop is recorded now: the worker's later finish is refused (the run is no longer INPROGRESS).
    await this.o.journal.endLost(runId, message.message, 'CANCELLED').catch(() => undefined);
  }

  stop(runId: string): void {
    const instanceId = this.o.hub.holderOf(runId);
    if (instanceId === undefined) return;
    this.o.hub.letGo(runId);
    this.o.hub.command(instanceId, { kind: 'cancel', run_id: runId });
  }

  deliver(runId: string, followup: FollowupMessage): boolean {
    const instanceId = this.o.hub.holderOf(runId);
    if (instanceId === undefined) return false;
    this.o.hub.command(instanceId, { kind: 'followup', run_id: runId, followup });
    return true;
  }

  queued(): void {
    this.o.hub.wakeAll();
  }
}
