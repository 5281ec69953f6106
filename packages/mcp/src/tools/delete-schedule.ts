import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { scheduleIdArgument } from './pause-schedule.js';
import { toolErrorResult } from './tool-error.js';

export function registerDeleteScheduleTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'delete_schedule',
    {
      title: 'Delete a schedule',
      description:
        'Deletes a schedule for good: it starts no more runs (the runs it started stay). Only do this when the user ' +
        'asks; to stop it for a while, use pause_schedule.',
      inputSchema: z.strictObject({ schedule_id: scheduleIdArgument }),
      outputSchema: z.object({ schedule_id: z.string(), deleted: z.literal(true) }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async ({ schedule_id }) => {
      try {
        await ctx.client.schedules.delete(schedule_id);
        return { structuredContent: { schedule_id, deleted: true }, content: [{ type: 'text', text: `Deleted schedule ${schedule_id}.` }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'delete_schedule', doing: `delete schedule ${schedule_id}`, names: 'schedule' }, ctx.client);
      }
    },
  );
}
