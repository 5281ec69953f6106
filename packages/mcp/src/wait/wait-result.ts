import { z } from 'zod';
import { definedOnly, formatElapsed, RunItemSchema, summarizeRun } from '@agent-runs/core';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { boundRun, inRunResource, TOOL_FIELD_CHARS } from '../results/bounded-run.js';
import type { FollowWithProgressOutcome } from './follow-with-progress.js';

export const waitForRunOutput = z.object({
  run_id: z.string(),
  finished: z.boolean().describe('True when the run reached a terminal state (SUCCEEDED, FAILED, ERROR, CANCELLED, BLOCKED)'),
  timed_out: z.boolean().describe('True when the wait ended before the run did; the run goes on'),
  waited_ms: z.number().describe('How long this call waited'),
  note: z.string().optional().describe('What happened and what to do next, when the run did not finish'),
  run: RunItemSchema.optional().describe('The terminal run, or the last state seen'),
});

export type WaitForRunOutput = z.infer<typeof waitForRunOutput>;

/** What to tell the assistant after a terminal state it may need to act on. */
function afterwards(state: string, errorCode: string | undefined): string | undefined {
  switch (state) {
    case 'BLOCKED':
      if (errorCode === 'budget_exceeded') {
        return (
          'The run stopped at its budget (the status message says what it spent against which cap). To continue it, ' +
          'ask the user, then call follow_up_run with a raised cap (max_cost_usd, max_tokens or max_duration_seconds): ' +
          'the agent resumes where it stopped.'
        );
      }
      return 'The run needs a person: tell the user, and open the session link if there is one.';
    case 'FAILED':
    case 'ERROR':
      return 'See the status message for why; start a new run with create_run if a retry makes sense.';
    default:
      return undefined;
  }
}

/** The tool result of a wait: structured for hosts that read it, a short summary for those that show text. */
export function waitResult(runId: string, outcome: FollowWithProgressOutcome): CallToolResult {
  const run = outcome.run && boundRun(outcome.run, TOOL_FIELD_CHARS, inRunResource);
  const output: WaitForRunOutput = definedOnly({
    run_id: runId,
    finished: outcome.finished,
    timed_out: outcome.timedOut,
    waited_ms: outcome.waitedMs,
    run,
  });
  const lines: string[] = [];
  if (outcome.timedOut) {
    output.note =
      `Stopped waiting after ${formatElapsed(outcome.waitedMs)}; run ${runId} ` +
      (run ? `is still ${run.state}` : 'has not answered yet') +
      ' and goes on. Call wait_for_run again to keep waiting, get_run to check on it, or cancel_run to stop it.';
    lines.push(output.note);
  }
  if (run) {
    lines.push(summarizeRun(run));
    const next = outcome.finished ? afterwards(run.state, run.status_message?.error_code) : undefined;
    if (next) lines.push(next);
  }
  return { structuredContent: output, content: [{ type: 'text', text: lines.join('\n') }] };
}
