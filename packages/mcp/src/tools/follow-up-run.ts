import { BUDGET_ARGUMENTS, budgetOf } from './budget-arguments.js';
import { z } from 'zod';
import { definedOnly, RunFollowupRequestSchema, RunModeSchema } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { followWithProgress } from '../wait/follow-with-progress.js';
import { waitForRunOutput, waitResult } from '../wait/wait-result.js';
import { waitTimeoutArgument, waitTimeoutMs } from '../wait/wait-timeout-argument.js';
import { runIdArgument } from './run-id-argument.js';
import { progressSender } from '../wait/progress-sender.js';
import { toolErrorResult } from './tool-error.js';

const followUpOutput = z.object({
  run_id: z.string(),
  state: z.string().optional().describe('The run state right after the follow-up was taken'),
  followup_id: z.string().optional(),
  wait: waitForRunOutput.optional().describe('With wait: true, how the run ended (or where it was when the wait timed out)'),
});

export function registerFollowUpRunTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'follow_up_run',
    {
      title: 'Send a follow-up to a cloud agent run',
      description:
        'Tells an existing run something more, in any state: a finished (or failed, or cancelled) run runs again in ' +
        'the same working directory with the whole conversation; a running one gets the message at once; a queued ' +
        'one starts with it. Use it to ask for a change after a run finished instead of starting a new run. With ' +
        'wait: true it then waits like wait_for_run (progress notifications, timeout default 10m).',
      inputSchema: z.strictObject({
        run_id: runIdArgument,
        message: RunFollowupRequestSchema.shape.message.describe('What to tell the run'),
        mode: RunModeSchema.optional().describe('normal (default), plan or orchestrate'),
        ...BUDGET_ARGUMENTS,
        wait: z.boolean().optional().describe('Wait for the run to finish answering (default false)'),
        timeout: waitTimeoutArgument,
      }),
      outputSchema: followUpOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async ({ run_id, message, mode, wait, timeout, max_cost_usd, max_tokens, max_duration_seconds }, extra): Promise<CallToolResult> => {
      try {
        const budget = budgetOf({ max_cost_usd, max_tokens, max_duration_seconds });
        const answer = await ctx.client.runs.followup(run_id, { message, mode, ...(budget ? { budget } : {}) });
        const output: z.infer<typeof followUpOutput> = definedOnly({
          run_id,
          state: answer.state || undefined,
          followup_id: answer.followup_id || undefined,
        });
        const sent = `Follow-up sent to run ${run_id}${answer.state ? ` (now ${answer.state})` : ''}.`;
        if (!wait) {
          return {
            structuredContent: output,
            content: [{ type: 'text', text: `${sent} Call wait_for_run to wait for its answer.` }],
          };
        }
        const outcome = await followWithProgress(ctx.client, run_id, {
          timeoutMs: waitTimeoutMs(timeout),
          signal: extra.mcpReq.signal,
          heartbeatMs: ctx.heartbeatMs,
          pollIntervalMs: ctx.pollIntervalMs,
          afterFollowup: answer.followup_id,
          onProgress: progressSender(extra),
        });
        const waited = waitResult(run_id, outcome);
        output.wait = waited.structuredContent as z.infer<typeof waitForRunOutput>;
        const text = waited.content[0]?.type === 'text' ? waited.content[0].text : '';
        return { structuredContent: output, content: [{ type: 'text', text: `${sent}\n${text}` }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'follow_up_run', doing: `send a follow-up to run ${run_id}`, names: 'run' }, ctx.client);
      }
    },
  );
}
