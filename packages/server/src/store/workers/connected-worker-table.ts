import type { TableDescription } from '../table-description.js';
import type { ConnectedWorkerRecord } from './connected-worker-store.js';

/** The `connected_workers` table: one row per worker process, replaced as it connects and polls. */
export const CONNECTED_WORKERS_TABLE: TableDescription<ConnectedWorkerRecord, ConnectedWorkerRecord> = {
  name: 'connected_workers',
  columns: [
    { name: 'instance_id', type: 'text', write: (w) => w.instance_id, read: 'instance_id', notNull: true, unique: true, byteOrder: true },
    { name: 'worker_host', type: 'text', write: (w) => w.worker_host, read: 'worker_host', notNull: true, byteOrder: true },
    { name: 'token_name', type: 'text', write: (w) => w.token_name, read: 'token_name', notNull: true },
    { name: 'version', type: 'text', write: (w) => w.version, read: 'version', notNull: true },
    { name: 'capacity', type: 'integer', write: (w) => w.capacity, read: 'capacity', notNull: true },
    { name: 'running_runs', type: 'integer', write: (w) => w.running_runs, read: 'running_runs', notNull: true },
    { name: 'harnesses', type: 'json', write: (w) => w.harnesses, read: 'harnesses', notNull: true },
    { name: 'environments', type: 'json', write: (w) => w.environments, read: 'environments', notNull: true },
    { name: 'connected_at', type: 'text', write: (w) => w.connected_at, read: 'connected_at', notNull: true },
    { name: 'last_heartbeat_at', type: 'text', write: (w) => w.last_heartbeat_at, read: 'last_heartbeat_at', notNull: true, byteOrder: true },
    { name: 'draining', type: 'boolean', write: (w) => w.draining, read: 'draining', notNull: true },
  ],
  indexes: [{ name: 'connected_workers_by_heartbeat', on: 'last_heartbeat_at' }],
};

/** Every column but the key, as an upsert replaces them. */
export const REPLACED = CONNECTED_WORKERS_TABLE.columns
  .filter((c) => c.name !== 'instance_id')
  .map((c) => `${c.name} = excluded.${c.name}`)
  .join(', ');
