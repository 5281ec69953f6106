import { z } from 'zod';

/**
 * A worker id (`agent_config.worker_host`): what a self-hosted worker announces and a run
 * names to run there. Letters, digits, ".", "_" and "-", so it is safe in a log line, a
 * label and a metric.
 */
export const WORKER_HOST_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** The value of `worker_host` that means the service's own workers (the public service's hosted ones). */
export const HOSTED_WORKER_HOST = 'warp';

/** One connected worker process, as `GET /agent/connected-self-hosted-workers` lists it. */
export const ConnectedWorkerSchema = z
  .looseObject({
    worker_host: z.string().describe('The id runs name in agent_config.worker_host to run on it'),
    instance_id: z.string().describe('This process, one of the pool serving worker_host'),
    version: z.string().describe('The worker\'s version'),
    capacity: z.number().int().describe('Runs it executes at once, at most'),
    running_runs: z.number().int().describe('Runs it executes now'),
    harnesses: z.array(z.string()).describe('The harnesses it can start'),
    environments: z.array(z.string()).describe('The environments it serves (empty: any)'),
    connected_at: z.string().describe('When it connected (ISO 8601)'),
    last_heartbeat_at: z.string().describe('When it was last heard from (ISO 8601)'),
    draining: z.boolean().describe('Whether it is shutting down: it takes no new run'),
  })
  .describe('A self-hosted worker connected to the server');

export type ConnectedWorker = z.infer<typeof ConnectedWorkerSchema>;

/** The answer of `GET /agent/connected-self-hosted-workers`. */
export const ConnectedWorkersResponseSchema = z
  .looseObject({ workers: z.array(ConnectedWorkerSchema) })
  .describe('The self-hosted workers connected now, by worker_host then instance');

export type ConnectedWorkersResponse = z.infer<typeof ConnectedWorkersResponseSchema>;
