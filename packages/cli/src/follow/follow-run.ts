import { APIUserAbortError, WaitTimeoutError, type AgentRunsClient, type RunItem, type RunOutputData } from '@agent-runs/core';
import type { Io } from '../io.js';
import type { RunDisplay } from '../render/run-display.js';

export type FollowOutcome =
  | { kind: 'finished'; run: RunItem }
  | { kind: 'timed-out'; error: WaitTimeoutError }
  | { kind: 'interrupted'; lastRun: RunItem | undefined };

export interface FollowOptions {
  client: AgentRunsClient;
  runId: string;
  io: Io;
  display: RunDisplay;
  /** Milliseconds to wait at most; core's default (one hour) when absent. */
  timeoutMs?: number;
  /** Polling cadence; the default suits people, tests and demos may go faster. */
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
  /** Leave the agent's output out. */
  quiet?: boolean;
}

/**
 * Waits for a run to reach a terminal state, showing each change and, where the server
 * streams it, the agent's output as it comes. Ctrl-C stops the
 * waiting (not the run) and resolves as `interrupted`; a timeout resolves as `timed-out`.
 */
export async function followRun(options: FollowOptions): Promise<FollowOutcome> {
  const { client, runId, io, display } = options;
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => controller.abort());
  let lastRun: RunItem | undefined;
  let sessionShown = false;
  try {
    const run = await client.runs.wait(runId, {
      signal: controller.signal,
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
      ...(options.pollIntervalMs !== undefined
        ? { pollInterval: options.pollIntervalMs }
        : {}),
      ...(options.maxPollIntervalMs !== undefined ? { maxPollInterval: options.maxPollIntervalMs } : {}),
      ...(options.quiet ? {} : { onOutput: (chunk: RunOutputData) => display.output(chunk) }),
      onUpdate(update) {
        lastRun = update.run;
        display.update(update);
        // The link is worth opening while the run goes, so show it as soon as it exists.
        if (!sessionShown && update.run.session_link) {
          sessionShown = true;
          display.note(`Session: ${update.run.session_link}`);
        }
      },
    });
    return { kind: 'finished', run };
  } catch (error) {
    if (error instanceof APIUserAbortError && controller.signal.aborted) return { kind: 'interrupted', lastRun };
    if (error instanceof WaitTimeoutError) return { kind: 'timed-out', error };
    throw error;
  } finally {
    stopListening();
    display.stop();
  }
}
