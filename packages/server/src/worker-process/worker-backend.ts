import type { RunExecutor } from '../executors/run-executor.js';
import type { ReattachedRun } from './poll-loop.js';

/** What runs the agents: processes of this machine, Kubernetes Jobs, or the operator's dispatch command. */
export interface WorkerBackend {
  executor: RunExecutor;
  harnesses: string[];
  environments: string[];
  /** Whether runs leave working directories here. */
  workDirs: boolean;
  /** The runs to follow again after a restart; `leaseMs`: the server's lease, past which a run not renewed is ended there. */
  reattach?: (leaseMs: number) => Promise<ReattachedRun[]>;
  close?: () => void;
}
