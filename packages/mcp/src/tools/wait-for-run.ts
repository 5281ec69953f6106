import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { RESULT_TTL_MS } from '../tasks/task-registry.js';
import { runAsTask } from '../tasks/task-scope.js';
import { waitForRunOutput, waitResult } from '../wait/wait-result.js';
import { waitTimeoutArgument, waitTimeoutMs } from '../wait/wait-timeout-argument.js';
import { followRunInTask } from './follow-run-in-task.js';
import { runIdArgument } from './run-id-argument.js';
import { toolErrorResult } from './tool-error.js';

export const WAIT_FOR_RUN = 'wait_for_run';

export function registerWaitForRunTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    WAIT_FOR_RUN,
    {
      title: 'Wait for a cloud agent run to finish',
      description:
        'Blocks until a run reaches a terminal state (SUCCEEDED, FAILED, ERROR, CANCELLED, or BLOCKED which needs a ' +
        'person) and returns the run with its status message. Sends progress notifications such as ' +
        '"INPROGRESS · 3m12s" while it waits. If `timeout` (default 10m) passes first, it returns the last state ' +
        'seen with timed_out: true and a note; the run goes on, so call it again to keep waiting. Also available ' +
        'as an MCP task for hosts that support tasks. Cancelling the call stops only the wait, never the run.',
      inputSchema: z.object({ run_id: runIdArgument, timeout: waitTimeoutArgument }),
      outputSchema: waitForRunOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    },
    async (args, request) => {
      const timeoutMs = waitTimeoutMs(args.timeout);
      try {
        // The task must outlive the wait, whatever ttl the host asked for.
        return await runAsTask(ctx.tasks, request, timeoutMs + RESULT_TTL_MS, async (task) => {
          return waitResult(args.run_id, await followRunInTask(ctx, task, args.run_id, timeoutMs, request));
        });
      } catch (error) {
        if (request.mcpReq.signal.aborted) throw error;
        return toolErrorResult(error, { tool: WAIT_FOR_RUN, doing: `wait for run ${args.run_id}`, names: 'run' }, ctx.client);
      }
    },
  );
}
