import type { ConnectedWorker } from '@agent-runs/core/contract';

/** A worker process as the store keeps it: what the list shows, and the token it connected with. */
export interface ConnectedWorkerRecord extends ConnectedWorker {
  /** The worker token's name (never its value). */
  token_name: string;
}

/**
 * The worker processes connected to any server of the database: written at connect and,
 * at most every few seconds per instance, at its polls; read by the list and by a server a
 * worker's poll reaches without having seen its connect.
 */
export interface ConnectedWorkerStore {
  /** Inserts or replaces the instance's row. */
  put(record: ConnectedWorkerRecord): Promise<void>;
  get(instanceId: string): Promise<ConnectedWorkerRecord | undefined>;
  /** The instances heard from at or after `since` (ISO 8601), by worker_host then instance_id. */
  heardSince(since: string): Promise<ConnectedWorkerRecord[]>;
}
