import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { RunRecord } from './runs/run-record.js';

/**
 * What one server tells the others sharing its database. Each is a hint to look at the
 * database again, never the data itself, so a lost signal only delays; the leases and
 * periodic checks make up for it.
 */
export type ClusterSignal =
  /** A run became QUEUED: a server with a free slot claims it. */
  | { kind: 'queued' }
  /** Events of the run were stored, up to `lastId`: its open streams read them. */
  | { kind: 'events'; runId: string; lastId: number }
  /** The run was cancelled: the server executing it stops the work. */
  | { kind: 'cancel'; runId: string }
  /** A follow-up for a run in progress: the server executing it hands it to the agent. */
  | { kind: 'followup'; runId: string; followupId: string }
  /** A message to a run in progress: the server executing it appends it to the agent's inbox. */
  | { kind: 'message'; runId: string; messageId: string };

/** Signals between the servers of one database (PostgreSQL LISTEN/NOTIFY). */
export interface ClusterSignals {
  /** Sends to every other server; resolves once sent. */
  publish(signal: ClusterSignal): Promise<void>;
  /** Signals from the other servers (never this one's own). */
  subscribe(listener: (signal: ClusterSignal) => void): void;
  /** Called after the listening connection was lost and made again: signals may have been missed meanwhile. */
  onReconnect(listener: () => void): void;
}

/** Leases on the runs each server executes, timed by the database's clock. */
export interface RunLeases {
  /**
   * Extends by `leaseMs` the lease of every INPROGRESS run `owner` holds; answers the ids
   * it still holds, so runs cancelled or expired meanwhile can be let go.
   */
  renew(owner: string, leaseMs: number): Promise<string[]>;
  /** Marks FAILED, with `message`, every INPROGRESS run whose lease ran out; returns them as changed. */
  expire(message: (owner: string | null) => RunStatusMessage, at: string): Promise<RunRecord[]>;
  /**
   * Runs last updated in [`after`, `through`] whose event log does not show them as they
   * are (a server died between changing a run and logging it), oldest first, at most `limit`.
   * `after` is included: runs of one millisecond may be split across two batches.
   */
  unlogged(after: string, through: string, limit: number): Promise<RunRecord[]>;
}

/** Secrets every server of a database must share (session links, download links). */
export interface SharedSecrets {
  /** The secret named `name`: made at random by the first server to ask, then the same for all. */
  get(name: string): Promise<Buffer>;
}

/** What a store shared by several servers adds. */
export interface ClusterStore {
  leases: RunLeases;
  signals: ClusterSignals;
  secrets: SharedSecrets;
}
