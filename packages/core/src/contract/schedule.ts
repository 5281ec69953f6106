import { z } from 'zod';
import { PageInfoSchema } from './list-runs.js';
import { pageQueryShape } from './page-query.js';
import { AmbientAgentConfigSchema } from './ambient-agent-config.js';
import { CloudEnvironmentConfigSchema } from './cloud-environment.js';

export const SCHEDULE_METADATA_MAX_KEYS = 20;
export const SCHEDULE_MODES = ['normal', 'plan', 'orchestrate'] as const;

const metadata = z
  .record(z.string(), z.string({ error: 'values must be strings' }))
  .refine((m) => Object.keys(m).length <= SCHEDULE_METADATA_MAX_KEYS, {
    message: `must have at most ${SCHEDULE_METADATA_MAX_KEYS} keys`,
  });

const required = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? `is required: ${what}` : `must be ${what}`),
});

const scheduleFields = {
  name: z.string(required('a non-empty string')).trim().min(1, 'must be a non-empty string').describe('A name for the schedule'),
  cron_schedule: z
    .string(required('a 5-field cron expression such as "0 9 * * 1-5"'))
    .trim()
    .min(1, 'must be a 5-field cron expression such as "0 9 * * 1-5"')
    .describe('When to start a run: a 5-field cron expression (minute hour day-of-month month day-of-week)'),
  prompt: z.string().optional().describe('The instruction for each run; required unless agent_config.skill_spec or agent_config.skills is given'),
  agent_config: AmbientAgentConfigSchema.optional().describe('Configuration of each run (environment, skill, model, ...)'),
  agent_uid: z.string().min(1).optional().describe('A named agent whose defaults each run takes'),
  metadata: metadata.optional().describe(`String map copied to each run (at most ${SCHEDULE_METADATA_MAX_KEYS} keys)`),
  mode: z.enum(SCHEDULE_MODES, { error: `must be one of ${SCHEDULE_MODES.join(', ')}` }).optional(),
};

function needsInstruction(
  value: { prompt?: string | undefined; agent_config?: { skill_spec?: string | undefined; skills?: string[] | undefined } | undefined },
  ctx: z.RefinementCtx,
): void {
  const hasPrompt = value.prompt !== undefined && value.prompt.trim() !== '';
  if (!hasPrompt && !value.agent_config?.skill_spec && !value.agent_config?.skills?.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['prompt'],
      message: 'is required (a non-empty string) unless agent_config.skill_spec or agent_config.skills is given',
    });
  }
}

/** The body of `POST /agent/schedules`. */
export const ScheduleCreateRequestSchema = z
  .strictObject({
    ...scheduleFields,
    enabled: z.boolean().optional().describe('Whether it fires (default true)'),
    team: z.boolean().optional(),
  })
  .superRefine(needsInstruction)
  .describe('A schedule that starts a run at each tick of a cron expression');

export type ScheduleCreateRequest = z.input<typeof ScheduleCreateRequestSchema>;

/** The body of `PUT /agent/schedules/{id}`: the whole schedule again. */
export const ScheduleUpdateRequestSchema = z
  .strictObject({
    ...scheduleFields,
    enabled: z.boolean({ error: 'must be true or false' }).describe('Whether it fires'),
  })
  .superRefine(needsInstruction)
  .describe('A schedule, replaced whole');

export type ScheduleUpdateRequest = z.input<typeof ScheduleUpdateRequestSchema>;

export const ScheduledAgentHistorySchema = z.looseObject({
  last_ran: z.string().nullable().optional().describe('When it last started a run (RFC 3339)'),
  next_run: z.string().nullable().optional().describe('When it fires next (RFC 3339); null while paused'),
});

/** One schedule, as the server answers. Parsed leniently. */
export const ScheduledAgentItemSchema = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    cron_schedule: z.string(),
    enabled: z.boolean(),
    prompt: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    agent_config: AmbientAgentConfigSchema.optional(),
    agent_uid: z.string().optional(),
    environment: CloudEnvironmentConfigSchema.optional(),
    history: ScheduledAgentHistorySchema.optional(),
    last_spawn_error: z.string().nullable().optional().describe('Why the last firing could not start a run'),
    metadata: z.record(z.string(), z.string()).optional(),
    created_by: z.looseObject({}).optional(),
    updated_by: z.looseObject({}).optional(),
    scope: z.looseObject({ type: z.string(), uid: z.string().optional() }).optional(),
  })
  .describe('A schedule that starts runs on a cron');

export type ScheduledAgentItem = z.infer<typeof ScheduledAgentItemSchema>;

export const ListSchedulesResponseSchema = z.looseObject({ schedules: z.array(ScheduledAgentItemSchema), page_info: PageInfoSchema.optional() });

/** The query of `GET /agent/schedules`: a page of the caller's schedules, oldest first. */
export const ListSchedulesQuerySchema = z.strictObject({ ...pageQueryShape });
export type ListSchedulesQuery = z.input<typeof ListSchedulesQuerySchema>;
export type ListSchedulesResponse = z.infer<typeof ListSchedulesResponseSchema>;

export const ScheduleDeleteResponseSchema = z.looseObject({ success: z.boolean() });
export type ScheduleDeleteResponse = z.infer<typeof ScheduleDeleteResponseSchema>;
