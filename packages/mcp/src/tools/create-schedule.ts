import { z } from 'zod';
import { ScheduleCreateRequestSchema, ScheduledAgentItemSchema, type ScheduleCreateRequest } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { summarizeSchedule } from './schedule-summary.js';
import { toolErrorResult } from './tool-error.js';

const fields = ScheduleCreateRequestSchema.shape;

export function registerCreateScheduleTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'create_schedule',
    {
      title: 'Create a schedule',
      description:
        'Creates a schedule that starts a run with `prompt` at each tick of `cron_schedule`, a 5-field cron expression ' +
        '(minute hour day-of-month month day-of-week, in UTC unless the server says otherwise; e.g. "0 9 * * 1-5" is ' +
        '09:00 on weekdays). `agent_config` takes environment_id and skill_spec as create_run’s config does; use ' +
        'list_environments and list_skills when unsure. Only create one when the user asks for a recurring run.',
      inputSchema: z.strictObject({
        name: fields.name,
        cron_schedule: fields.cron_schedule,
        prompt: fields.prompt,
        agent_config: fields.agent_config,
        agent_uid: fields.agent_uid,
        enabled: fields.enabled,
      }),
      outputSchema: ScheduledAgentItemSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args) => {
      try {
        const created = await ctx.client.schedules.create(args as ScheduleCreateRequest);
        return { structuredContent: created, content: [{ type: 'text', text: `Created schedule:\n${summarizeSchedule(created)}` }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'create_schedule', doing: 'create the schedule' }, ctx.client);
      }
    },
  );
}
