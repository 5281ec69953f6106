/**
 * Told each time a self-hosted worker's lease on a run ran out and the run was failed for
 * it (the server's `/metrics` counts them by worker id). Services take it; the wiring gives
 * the metrics' counter.
 */
export type LeaseLosses = (workerHost: string) => void;

export const IGNORE_LEASE_LOSSES: LeaseLosses = () => undefined;
