import { Counter, Gauge, Registry } from 'prom-client';
import type { ConnectedWorkersResponse } from '@agent-runs/core/contract';
import type { ActiveCount, RunStore } from '../store/runs/run-store.js';
import type { WorkerService } from '../workers/worker-service.js';

/**
 * What `GET /metrics` shows, in Prometheus's text format: the signals to scale workers on.
 * The gauges are read from the store and the connected workers at each scrape (so every
 * server of a database shows the same queue); the counter is this server's own.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  /** Runs failed here because their worker's lease ran out, by worker id. */
  readonly leasesLost: Counter<'worker_host'>;
  /** Runs created here for a worker id whose connected workers had no free slot, by worker id. */
  readonly atCapacityRuns: Counter<'worker_host'>;

  constructor(store: Pick<RunStore, 'activeCounts'>, workers: Pick<WorkerService, 'connected'>) {
    const registers = [this.registry];
    // One read of each per scrape, shared by the gauges it feeds (they are collected in turn).
    let scrape: Promise<[ActiveCount[], ConnectedWorkersResponse]> | undefined;
    const read = () => (scrape ??= Promise.all([store.activeCounts(), workers.connected()]).finally(() => setImmediate(() => (scrape = undefined))));
    const byState = (state: ActiveCount['state']) =>
      async function (this: Gauge<'worker_host'>) {
        this.reset();
        for (const c of (await read())[0]) if (c.state === state) this.set({ worker_host: c.workerHost }, c.count);
      };
    new Gauge({ name: 'agent_runs_queued_runs', help: "Runs waiting to be executed, by the worker id they wait for ('' for the servers' own executors).", labelNames: ['worker_host'], registers, collect: byState('QUEUED') });
    new Gauge({ name: 'agent_runs_runs_in_flight', help: "Runs executing now, by worker id ('' for the servers' own executors).", labelNames: ['worker_host'], registers, collect: byState('INPROGRESS') });
    new Gauge({
      name: 'agent_runs_workers_connected',
      help: 'Worker processes heard from lately, by worker id.',
      labelNames: ['worker_host'],
      registers,
      async collect() {
        this.reset();
        for (const w of (await read())[1].workers) this.inc({ worker_host: w.worker_host });
      },
    });
    new Gauge({
      name: 'agent_runs_worker_free_slots',
      help: 'Runs the connected workers could take now, by worker id (0 while all are busy or draining).',
      labelNames: ['worker_host'],
      registers,
      async collect() {
        this.reset();
        for (const w of (await read())[1].workers) this.inc({ worker_host: w.worker_host }, w.draining ? 0 : Math.max(0, w.capacity - w.running_runs));
      },
    });
    this.atCapacityRuns = new Counter({
      name: 'agent_runs_worker_at_capacity_total',
      help: 'Runs created on this server for a worker id whose connected workers had no free slot (the run waits in line), by worker id.',
      labelNames: ['worker_host'],
      registers,
    });
    this.leasesLost = new Counter({ name: 'agent_runs_worker_leases_lost_total', help: 'Runs this server failed because their worker stopped renewing its lease, by worker id.', labelNames: ['worker_host'], registers });
  }

  /** Told by the services: a worker's lease ran out and its run was failed. */
  leaseLost = (workerHost: string): void => {
    this.leasesLost.inc({ worker_host: workerHost });
  };

  /** Told by routing: a run was created for a worker id with every connected slot taken. */
  atCapacity = (workerHost: string): void => {
    this.atCapacityRuns.inc({ worker_host: workerHost });
  };

  async render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
