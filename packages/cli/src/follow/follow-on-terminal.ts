import type { AgentRunsClient, FollowOutcome, RunOutputData } from '@agent-runs/core';
import type { Io } from '../io.js';
import type { RunDisplay } from '../render/run-display.js';

export interface FollowOnTerminalOptions {
  client: AgentRunsClient;
  runId: string;
  io: Io;
  display: RunDisplay;
  /** Milliseconds to wait at most; core's default (one hour) when absent. */
  timeoutMs?: number | undefined;
  /** Polling cadence; the default suits people, tests and demos may go faster. */
  pollIntervalMs?: number | undefined;
  maxPollIntervalMs?: number | undefined;
  /** Leave the agent's output out. */
  quiet?: boolean | undefined;
  /** Show only the execution this follow-up started (its id), not the run's earlier ones again. */
  afterFollowup?: string | undefined;
}

/**
 * Follows a run with core's `runs.follow`, rendering each change, the session link (once,
 * as soon as it exists: it is worth opening while the run goes) and, where the server
 * streams it, the agent's output. Ctrl-C stops the following (not the run): `stopped`.
 */
export async function followOnTerminal(options: FollowOnTerminalOptions): Promise<FollowOutcome> {
  const { client, runId, io, display } = options;
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => controller.abort());
  try {
    return await client.runs.follow(runId, {
      signal: controller.signal,
      afterFollowup: options.afterFollowup,
      timeout: options.timeoutMs,
      pollInterval: options.pollIntervalMs,
      maxPollInterval: options.maxPollIntervalMs,
      ...(options.quiet ? {} : { onOutput: (chunk: RunOutputData) => display.output(chunk) }),
      onChange(change) {
        display.update(change);
        if (change.newSessionLink) display.note(`Session: ${change.newSessionLink}`);
      },
    });
  } finally {
    stopListening();
    display.stop();
  }
}
