import type { ConnectedWorker } from '@agent-runs/core/contract';
import type { WorkerCommand } from './worker-protocol.js';

/** A worker process this server heard from. */
export interface WorkerInstance {
  worker: ConnectedWorker;
  /** The token it connected with (its name): a poll under another token is not this instance's. */
  tokenName: string;
  /** When it was last heard from, in epoch milliseconds. */
  heardAt: number;
  /** When its row was last written to the store, in epoch milliseconds. */
  writtenAt: number;
}

interface Waiter {
  instanceId: string;
  wake: () => void;
}

/**
 * The worker processes this server talks to, in memory: who connected, the polls waiting
 * for work (woken when a run is queued, here or on a peer, or a command is queued for
 * them), the commands waiting for each instance's next poll, and which instance holds
 * each run it was given here.
 */
export class WorkerHub {
  private readonly instances = new Map<string, WorkerInstance>();
  private readonly waiters = new Set<Waiter>();
  private readonly commands = new Map<string, WorkerCommand[]>();
  private readonly holders = new Map<string, string>();
  private readonly freed = new Map<string, number>();
  private closed = false;
  /**
   * Counts wakes, any instance's: a poll notes it before it looks for work and waits from that
   * note, so a run queued or a command sent while it looked (its claim awaits the database)
   * ends its wait at once rather than being lost until the wait runs out.
   */
  private wakes = 0;

  /** A worker connected (again): it replaces what was known of that instance. */
  connect(worker: ConnectedWorker, tokenName: string, now: number): void {
    this.instances.set(worker.instance_id, { worker, tokenName, heardAt: now, writtenAt: now });
  }

  get(instanceId: string): WorkerInstance | undefined {
    return this.instances.get(instanceId);
  }

  /**
   * A poll came: the instance is alive, with this many runs and this drain state. Answers it
   * when its row is due a write. An instance that said it drains stays draining until it
   * connects again (a poll it sent before, arriving late, does not undo it), and its poll
   * waiting for runs is woken to answer empty.
   */
  heard(instanceId: string, running: number, said: boolean, now: number, writeEveryMs: number): WorkerInstance | undefined {
    const known = this.instances.get(instanceId);
    if (!known) return undefined;
    const draining = known.worker.draining || said;
    if (draining && !known.worker.draining) this.wake(instanceId);
    const changed = known.worker.running_runs !== running || known.worker.draining !== draining;
    known.heardAt = now;
    known.worker = { ...known.worker, running_runs: running, draining, last_heartbeat_at: new Date(now).toISOString() };
    if (!changed && now - known.writtenAt < writeEveryMs) return undefined;
    known.writtenAt = now;
    return known;
  }

  /** Whether the instance said it drains: it takes no run. */
  isDraining(instanceId: string): boolean {
    return this.instances.get(instanceId)?.worker.draining === true;
  }

  /** The instances serving `host` heard from since `since`, as they said last. */
  heardSince(host: string, since: number): ConnectedWorker[] {
    return [...this.instances.values()].filter((i) => i.worker.worker_host === host && i.heardAt >= since).map((i) => i.worker);
  }


  /** The wakes so far: what `wait`'s `since` compares with. */
  get wakeCount(): number {
    return this.wakes;
  }

  /**
   * Waits until woken, `ms` pass, the poll's client goes away, or the hub closes; at once when
   * a wake came since `since` (a `wakeCount` read before the caller last looked for work).
   */
  wait(instanceId: string, ms: number, signal?: AbortSignal, since?: number): Promise<void> {
    if (this.closed || signal?.aborted || (since !== undefined && since !== this.wakes)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter: Waiter = {
        instanceId,
        wake: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', waiter.wake);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, ms);
      signal?.addEventListener('abort', waiter.wake, { once: true });
      this.waiters.add(waiter);
    });
  }

  /** A run was queued (its host is not known to every caller): every waiting poll looks. */
  wakeAll(): void {
    this.wakes++;
    for (const waiter of [...this.waiters]) waiter.wake();
  }

  private wake(instanceId: string): void {
    this.wakes++;
    for (const waiter of [...this.waiters]) if (waiter.instanceId === instanceId) waiter.wake();
  }

  /**
   * A run the instance held ended: its poll waiting (holding runs, it waits only for
   * commands) is answered now, so that its next poll asks for a run for the free slot.
   */
  slotFreed(instanceId: string): void {
    this.freed.set(instanceId, this.freedCount(instanceId) + 1);
    this.wake(instanceId);
  }

  /** How many slots the instance freed so far: a poll answers once it changes. */
  freedCount(instanceId: string): number {
    return this.freed.get(instanceId) ?? 0;
  }

  /** Queues a command for the instance's next poll, and wakes the one waiting. */
  command(instanceId: string, command: WorkerCommand): void {
    const list = this.commands.get(instanceId) ?? [];
    list.push(command);
    this.commands.set(instanceId, list);
    this.wake(instanceId);
  }

  hasCommands(instanceId: string): boolean {
    return (this.commands.get(instanceId)?.length ?? 0) > 0;
  }

  takeCommands(instanceId: string): WorkerCommand[] {
    const list = this.commands.get(instanceId) ?? [];
    this.commands.delete(instanceId);
    return list;
  }

  hold(runId: string, instanceId: string): void {
    this.holders.set(runId, instanceId);
  }

  letGo(runId: string): void {
    this.holders.delete(runId);
  }

  /**
   * Lets go of a run whose execution ended before it started, and drops the commands queued
   * for it: a follow-up among them is in its next execution's input, which the same answer
   * may bring, and would reach that agent twice.
   */
  letGoUnstarted(runId: string): void {
    const instanceId = this.holders.get(runId);
    this.letGo(runId);
    const list = instanceId === undefined ? undefined : this.commands.get(instanceId);
    if (!list) return;
    const kept = list.filter((c) => c.run_id !== runId);
    if (kept.length) this.commands.set(instanceId!, kept);
    else this.commands.delete(instanceId!);
  }

  /** The instance given the run here, if it was. */
  holderOf(runId: string): string | undefined {
    return this.holders.get(runId);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The server stops: every waiting poll is answered now, and none waits again. */
  close(): void {
    this.closed = true;
    this.wakeAll();
  }
}
