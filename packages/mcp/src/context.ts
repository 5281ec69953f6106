import type { AgentRunsClient } from '@agent-runs/core';
import type { RunWatcher } from './resources/run-watcher.js';
import type { TaskRegistry } from './tasks/task-registry.js';

/** What every tool and resource handler needs; one per process, shared by all sessions and requests. */
export interface ServerContext {
  client: AgentRunsClient;
  /** The waits under way and their results, read by tasks/* on any request. */
  tasks: TaskRegistry;
  /** Longest silence between progress notifications of wait_for_run, in ms. */
  heartbeatMs: number;
  /** First delay between polls of a waited run, in ms (core grows it to its cap). */
  pollIntervalMs: number;
  /** Register only the tools that change nothing. */
  readOnly: boolean;
  /** The run this server was started for (`AGENT_RUNS_RUN_ID`, as a run's harness starts it): whose messages the message tools send and read by default. */
  runId?: string | undefined;
  /** Follows the runs subscribers watch; without one, resources have no subscriptions. */
  watcher?: RunWatcher | undefined;
}

export const DEFAULT_HEARTBEAT_MS = 5_000;
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
