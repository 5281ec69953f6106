import type { RunExecutor } from '../executors/run-executor.js';
import type { ReattachedRun } from './poll-loop.js';

/** What runs the agents: processes of this machine, Kubernetes Jobs, or the operator's dispatch command. */
export interface WorkerBackend {
  executor: RunExecutor;
  harnesses: string[];
  environments: string[];
  /** Whether runs leave working directories here. */
  workDirs: boolean;
  reattach?: () => Promise<ReattachedRun[]>;
  close?: () => void;
}
