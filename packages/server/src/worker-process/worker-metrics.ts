import { Counter, Gauge, Registry } from 'prom-client';

/** What `GET /metrics` shows of this worker, in Prometheus's text format. */
export class WorkerMetrics {
  readonly registry = new Registry();
  readonly activeRuns = new Gauge({ name: 'agent_runs_worker_active_runs', help: 'Runs this worker executes now (stopping ones included).', registers: [this.registry] });
  readonly capacity = new Gauge({ name: 'agent_runs_worker_capacity', help: 'Runs this worker executes at once, at most (--concurrency).', registers: [this.registry] });
  readonly leasesLost = new Counter({ name: 'agent_runs_worker_leases_lost_total', help: 'Runs whose lease was lost (not renewed in time, or refused by the server); their agents were stopped.', registers: [this.registry] });
  readonly runsFinished = new Counter({
    name: 'agent_runs_worker_runs_finished_total',
    help: 'Runs this worker finished, by the outcome the server took.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly connected = new Gauge({ name: 'agent_runs_worker_connected', help: '1 while the server answers this worker, else 0.', registers: [this.registry] });
}
