import { z } from 'zod';
import { ListSchedulesResponseSchema } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { summarizeSchedule } from './schedule-summary.js';
import { toolErrorResult } from './tool-error.js';

export function registerListSchedulesTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'list_schedules',
    {
      title: 'List schedules',
      description:
        'Lists the schedules that start runs on a cron: each with its id, cron expression, whether it is paused, when it ' +
        'runs next and whether its last firing failed. Find a schedule’s runs with list_runs and schedule_id.',
      inputSchema: z.strictObject({}),
      outputSchema: ListSchedulesResponseSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async () => {
      try {
        const result = await ctx.client.schedules.list();
        const text = result.schedules.length
          ? [`${result.schedules.length} schedule(s):`, ...result.schedules.map(summarizeSchedule)].join('\n')
          : 'There are no schedules.';
        return { structuredContent: result, content: [{ type: 'text', text }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'list_schedules', doing: 'list schedules' }, ctx.client);
      }
    },
  );
}
