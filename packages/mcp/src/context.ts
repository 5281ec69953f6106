import type { AgentRunsClient } from '@agent-runs/core';

/** What every tool and resource handler needs; one per process, shared by all sessions. */
export interface ServerContext {
  client: AgentRunsClient;
  /** Longest silence between progress notifications of wait_for_run, in ms. */
  heartbeatMs: number;
  /** First delay between polls of a waited run, in ms (core grows it to its cap). */
  pollIntervalMs: number;
  /** Register only the tools that change nothing. */
  readOnly: boolean;
}

export const DEFAULT_HEARTBEAT_MS = 5_000;
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
