import type { AmbientAgentConfig, RunStatusMessage } from '@agent-runs/core/contract';
import type { FollowupMessage } from '../executors/execution-input.js';

/** Where a new run executes: its worker_host ('' the server's own executor), and why it waits, if it does. */
export interface RunRoute {
  workerHost: string;
  /** Set when no worker of that id is connected: the run waits QUEUED, saying so. */
  waiting?: RunStatusMessage;
  /** Whether a worker executes it (routed, or this server runs none): the executor's up-front checks are the worker's then. */
  remote: boolean;
}

/**
 * The runs executed elsewhere than in this server's queue (self-hosted workers), as the run
 * services reach them: where a new run goes, a cancel and a follow-up for one of them.
 */
export interface RemoteRuns {
  /** Where a run of this configuration executes; throws a 400 naming `field` for a worker id no token names. */
  route(config: AmbientAgentConfig, field?: string): Promise<RunRoute>;
  /** Whether a worker holds the run's lease now (read before a cancel). */
  onWorker(runId: string): Promise<boolean>;
  /** The run was cancelled while a worker executed it: its execution is ended, and its agent told to stop. */
  cancelled(runId: string, message: RunStatusMessage): Promise<void>;
  /** A peer cancelled the run: the worker holding it here, if one does, is told to stop it. */
  stop(runId: string): void;
  /** Hands a follow-up to the worker executing the run; false when no worker here holds it. */
  deliver(runId: string, followup: FollowupMessage): boolean;
  /** A run was queued (here or on a peer): waiting workers look for it. */
  queued(): void;
}

/** No workers: every run is the server's own. */
export const NO_REMOTE_RUNS: RemoteRuns = {
  route: async () => ({ workerHost: '', remote: false }),
  onWorker: async () => false,
  cancelled: async () => {},
  stop: () => {},
  deliver: () => false,
  queued: () => {},
};
