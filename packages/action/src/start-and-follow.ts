import {
  formatElapsed,
  runHeadline,
  type AgentRunsClient,
  type RunAgentRequest,
  type RunBudget,
  type RunItem,
} from '@agent-runs/core';
import { AgentOutputLog } from './agent-output-log.js';
import { cancelRun } from './cancel-run.js';
import type { ActionInputs } from './inputs.js';
import { logProgress } from './progress-log.js';
import type { JobCancellation } from './signals.js';
import { publicSessionLink } from './session-link.js';
import { leaveRunToItself, saveRunForPost } from './step-state.js';
import { logRunText } from './workflow-text.js';

/** How the step ends: the run as last seen, a one-line verdict, and whether the step fails. */
export interface RunOutcome {
  run: RunItem;
  headline: string;
  failed: boolean;
  /** The last lines of the agent's output (escaped), where the server streamed it. */
  outputTail?: readonly string[];
}

type FollowOptions = Pick<
  ActionInputs,
  'wait' | 'timeoutMs' | 'pollIntervalMs' | 'failOn' | 'cancelOnTimeout' | 'cancelOnJobCancel'
>;

const link = (run: RunItem) => (run.session_link ? ` ${publicSessionLink(run.session_link)}` : '');

/** What the step does to get a run going: create one, or follow up an existing one. */
export type RunStart = { request: RunAgentRequest } | { followup: { runId: string; message: string; budget?: RunBudget } };

/** The run, a line to log, and for a follow-up its id: following shows only the execution it started. */
async function start(client: AgentRunsClient, how: RunStart): Promise<{ runId: string; line: string; followupId: string | undefined }> {
  if ('followup' in how) {
    const { runId, message, budget } = how.followup;
    const answer = await client.runs.followup(runId, { message, ...(budget ? { budget } : {}) });
    return { runId, line: `Sent a follow-up to run ${runId}${answer.state ? ` (${answer.state})` : ''}.`, followupId: answer.followup_id };
  }
  const created = await client.runs.create(how.request);
  return { runId: created.run_id, line: `Started run ${created.run_id} (${created.state}).`, followupId: undefined };
}

/**
 * Starts the run (or follows up an existing one), then (unless told not to wait) follows
 * it to a terminal state. A run that outlives the step is cancelled or deliberately left
 * running, and the verdict says which.
 */
export async function startAndFollow(
  client: AgentRunsClient,
  how: RunStart,
  options: FollowOptions,
  jobCancel: JobCancellation,
  onRunId: (runId: string) => void,
): Promise<RunOutcome> {
  // Not abortable: a run that exists must be known, so that it can be cancelled.
  const { runId, line, followupId } = await start(client, how);
  onRunId(runId);
  saveRunForPost(runId, options.wait && options.cancelOnJobCancel);
  logRunText(line);

  if (!options.wait) {
    const run = await client.runs.get(runId);
    if (run.session_link) logRunText(`Session: ${publicSessionLink(run.session_link)}`);
    return { run, headline: `${line.replace(/\.$/, '')}; not waiting for it (wait: false).`, failed: false };
  }

  const output = new AgentOutputLog();
  const withTail = (outcome: RunOutcome): RunOutcome => (output.tail.length ? { ...outcome, outputTail: output.tail } : outcome);
  if (jobCancel.requested) return withTail(await jobCancelled(client, runId, options.cancelOnJobCancel, 0));
  const followed = await client.runs
    .follow(runId, {
      timeout: options.timeoutMs,
      signal: jobCancel.signal,
      afterFollowup: followupId,
      onChange: (change) => {
        output.pause();
        logProgress(change);
      },
      onOutput: (chunk) => output.write(chunk),
      pollInterval: options.pollIntervalMs || undefined,
    })
    .finally(() => output.end());
  switch (followed.kind) {
    case 'finished':
      return withTail(verdict(followed.run, options.failOn));
    case 'timed-out':
      return withTail(await timedOut(client, runId, followed.run, options.cancelOnTimeout, options.timeoutMs));
    case 'stopped':
      return withTail(await jobCancelled(client, runId, options.cancelOnJobCancel, followed.elapsedMs));
  }
}

function verdict(run: RunItem, failOn: string[]): RunOutcome {
  return { run, headline: `${runHeadline(run, true)}${link(run)}`, failed: failOn.includes(run.state) };
}

async function timedOut(
  client: AgentRunsClient,
  runId: string,
  lastSeen: RunItem | undefined,
  cancel: boolean,
  timeoutMs: number,
): Promise<RunOutcome> {
  const last = lastSeen ?? (await client.runs.get(runId));
  const lead = `Run ${runId} did not finish within ${formatElapsed(timeoutMs)} (last state ${last.state})`;
  if (!cancel) {
    leaveRunToItself();
    return { run: last, headline: `${lead}; it was left running (cancel-on-timeout: false).${link(last)}`, failed: true };
  }
  const after = (await cancelRun(client, runId)) ?? last;
  return { run: after, headline: `${lead}, so it was cancelled (now ${after.state}).${link(after)}`, failed: true };
}

async function jobCancelled(
  client: AgentRunsClient,
  runId: string,
  cancel: boolean,
  elapsedMs: number,
): Promise<RunOutcome> {
  const lead = `The job was cancelled after ${formatElapsed(elapsedMs)}`;
  if (!cancel) {
    leaveRunToItself();
    const run = await client.runs.get(runId, { timeout: 2_000, maxRetries: 0 });
    return { run, headline: `${lead}; run ${runId} was left running (cancel-on-job-cancel: false).${link(run)}`, failed: true };
  }
  const run = (await cancelRun(client, runId)) ?? (await client.runs.get(runId, { timeout: 2_000, maxRetries: 0 }));
  return { run, headline: `${lead}, so run ${runId} was cancelled (now ${run.state}).${link(run)}`, failed: true };
}
