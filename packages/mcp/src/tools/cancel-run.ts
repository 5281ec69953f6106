import { z } from 'zod';
import { definedOnly, RunItemSchema, summarizeRun, type RunItem } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { boundRun, inRunResource, TOOL_FIELD_CHARS } from '../results/bounded-run.js';
import { runIdArgument } from './run-id-argument.js';
import { toolErrorResult } from './tool-error.js';

export const cancelRunOutput = z.object({
  run_id: z.string(),
  cancelled: z.literal(true),
  run: RunItemSchema.optional().describe('The run after the cancel request, when it could be fetched'),
});

export function registerCancelRunTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'cancel_run',
    {
      title: 'Cancel a cloud agent run',
      description:
        'Cancels a run that is queued or in progress; its work stops and it ends as CANCELLED. Only do this when the ' +
        'user asks, or to stop a run started by mistake. A run that already finished cannot be cancelled (the error ' +
        'says so). Returns the run as it is after the request.',
      inputSchema: z.strictObject({ run_id: runIdArgument }),
      outputSchema: cancelRunOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    async ({ run_id }) => {
      let cancelledId: string;
      try {
        cancelledId = await ctx.client.runs.cancel(run_id);
      } catch (error) {
        return toolErrorResult(error, { tool: 'cancel_run', doing: `cancel run ${run_id}`, names: 'run' }, ctx.client);
      }
      // The cancel answer is only the id; the run itself tells the assistant where it ended up.
      let run: RunItem | undefined;
      try {
        run = boundRun(await ctx.client.runs.get(cancelledId), TOOL_FIELD_CHARS, inRunResource);
      } catch {
        run = undefined;
      }
      const text = run ? `Cancel requested.\n${summarizeRun(run)}` : `Cancel requested for run ${cancelledId}.`;
      return {
        structuredContent: definedOnly({ run_id: cancelledId, cancelled: true, run }),
        content: [{ type: 'text', text }],
      };
    },
  );
}
