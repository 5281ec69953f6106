import { HOSTED_WORKER_HOST, type AmbientAgentConfig } from '@agent-runs/core/contract';
import { unknownWorkerHost } from '../catalog/worker-hosts.js';
import type { RunRoute } from '../runs/remote-runs.js';

/** The workers of one id heard from lately: whether any is, and the runs they could take now (not draining). */
export interface WorkerAvailability {
  connected: boolean;
  freeSlots: number;
}

/**
 * Where a run executes: the worker_host of its configuration (the request's, else its named
 * agent's, as resolved), else its environment's; `warp` (the hosted service's own workers)
 * and none mean this server's own executor. A worker id no token names is refused (the run
 * could never start); one no worker serves now is accepted, and the run waits.
 */
export class WorkerRouting {
  constructor(
    /** The worker ids the configuration's tokens name. */
    private readonly known: readonly string[],
    /** The worker_host of an environment of the configuration. */
    private readonly environmentHost: (environmentId: string) => string | undefined,
    /** Whether a worker of that id is connected now, and how many runs its connected workers could take. */
    private readonly availability: (host: string) => Promise<WorkerAvailability>,
    /** The server runs no agent itself: runs that name no worker go to any worker. */
    private readonly workersOnly = false,
    /** Told of a run routed to an id whose connected workers have no free slot: it waits (a signal to add workers). */
    private readonly atCapacity: (host: string) => void = () => {},
  ) {}

  async route(config: AmbientAgentConfig, field = 'agent_config.worker_host'): Promise<RunRoute> {
    const named = config.worker_host ?? (config.environment_id !== undefined ? this.environmentHost(config.environment_id) : undefined);
    if (named === undefined || named === '' || named === HOSTED_WORKER_HOST) return { workerHost: '', remote: this.workersOnly };
    const unknown = unknownWorkerHost(this.known, named, field);
    if (unknown) throw unknown;
    const { connected, freeSlots } = await this.availability(named);
    if (connected) {
      if (freeSlots === 0) this.atCapacity(named);
      return { workerHost: named, remote: true };
    }
    return { workerHost: named, remote: true, waiting: { message: `Waiting for a self-hosted worker of id "${named}" to connect.` } };
  }
}
