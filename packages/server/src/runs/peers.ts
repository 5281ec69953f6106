import type { ClusterSignal } from '../store/cluster.js';

/** The other servers sharing this one's database; none for SQLite. */
export interface Peers {
  /** Tells the others, without waiting; a lost signal only delays (leases and checks make up for it). */
  publish(signal: ClusterSignal): void;
}

export const NO_PEERS: Peers = { publish() {} };
