import { z } from 'zod';
import { ScheduledAgentItemSchema } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { summarizeSchedule } from './schedule-summary.js';
import { toolErrorResult } from './tool-error.js';

export const scheduleIdArgument = z.string().min(1, 'schedule_id must be a schedule id from list_schedules').describe('The schedule’s id (from list_schedules)');

/** pause_schedule and resume_schedule: the two halves of one switch. */
export function registerPauseScheduleTools(server: McpServer, ctx: ServerContext): void {
  for (const [name, enabled] of [['pause_schedule', false], ['resume_schedule', true]] as const) {
    server.registerTool(
      name,
      {
        title: enabled ? 'Resume a schedule' : 'Pause a schedule',
        description: enabled
          ? 'Resumes a paused schedule: it fires again from its next tick (ticks missed while paused are not made up).'
          : 'Pauses a schedule: it starts no runs until resumed. Runs it already started are not affected.',
        inputSchema: z.strictObject({ schedule_id: scheduleIdArgument }),
        outputSchema: ScheduledAgentItemSchema,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      },
      async ({ schedule_id }) => {
        try {
          const schedule = enabled ? await ctx.client.schedules.resume(schedule_id) : await ctx.client.schedules.pause(schedule_id);
          return { structuredContent: schedule, content: [{ type: 'text', text: `${enabled ? 'Resumed' : 'Paused'}:\n${summarizeSchedule(schedule)}` }] };
        } catch (error) {
          return toolErrorResult(error, { tool: name, doing: `${enabled ? 'resume' : 'pause'} schedule ${schedule_id}`, names: 'schedule' }, ctx.client);
        }
      },
    );
  }
}
