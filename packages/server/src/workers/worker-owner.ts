import type { RunStatusMessage } from '@agent-runs/core/contract';

/**
 * A worker's name as the owner of its runs' leases: `worker/<worker_host>/<instance_id>`
 * (neither holds a "/"), so whoever finds the lease run out can name the worker.
 */
export const workerOwner = (host: string, instanceId: string) => `worker/${host}/${instanceId}`;

export const isWorkerOwner = (owner: string | null): boolean => owner?.startsWith('worker/') ?? false;

/** The worker id of a worker's lease owner. */
export const workerHostOf = (owner: string): string => owner.split('/')[1] ?? '';

/** Why a run whose worker stopped renewing its lease ended FAILED. */
export function lostWorkerMessage(owner: string | null): RunStatusMessage {
  const worker = owner?.slice('worker/'.length) ?? 'executing it';
  return {
    message: `The worker ${worker} stopped renewing its lease, so it is taken as gone and the run's outcome is unknown; start a new run.`,
    error_code: 'internal_error',
    retryable: true,
  };
}
