import { z } from 'zod';
import { AmbientAgentConfigSchema } from './ambient-agent-config.js';
import { ArtifactItemSchema } from './artifact-item.js';
import { RequestUsageSchema } from './request-usage.js';
import { RunSourceTypeSchema } from './run-source-type.js';
import { RunStateSchema } from './run-state.js';
import { ScopeSchema, UserProfileSchema, type UserProfile } from './user-profile.js';

export const RunStatusMessageSchema = z
  .looseObject({
    message: z.string(),
    error_code: z.string().optional().describe('A PlatformErrorCode such as internal_error'),
    retryable: z.boolean().optional(),
    session_debug_until: z.string().optional().describe('Until when the failed session stays open for debugging (RFC 3339)'),
  })
  .describe('Why a run is in its state; for failures, the error code and whether a new run may succeed');

export type RunStatusMessage = z.infer<typeof RunStatusMessageSchema>;

/** Who created the run: a UserProfile. */
export const RunCreatorInfoSchema = UserProfileSchema;
export type RunCreatorInfo = UserProfile;

export const RunAgentSkillSchema = z
  .looseObject({
    name: z.string().optional(),
    description: z.string().optional(),
    full_path: z.string().optional(),
    bundled_skill_id: z.string().optional(),
  })
  .describe('The skill the run started from');

export const RunScheduleSchema = z
  .looseObject({
    schedule_id: z.string(),
    schedule_name: z.string(),
    cron_schedule: z.string(),
  })
  .describe('The schedule that started the run');

/** One run, as listed and as fetched. Parsed leniently: unknown members are kept. */
export const RunItemSchema = z
  .looseObject({
    run_id: z.string(),
    /** @deprecated the same as run_id */
    task_id: z.string(),
    title: z.string(),
    state: RunStateSchema,
    prompt: z.string(),
    created_at: z.string().describe('RFC 3339'),
    updated_at: z.string().describe('RFC 3339; changes on every transition'),
    started_at: z.string().nullable().optional().describe('When work started (RFC 3339)'),
    run_time: z.string().optional().describe('How long the run has run'),
    status_message: RunStatusMessageSchema.optional(),
    source: RunSourceTypeSchema.optional(),
    creator: UserProfileSchema.optional(),
    executor: UserProfileSchema.optional().describe('Whose credentials the run executes with'),
    session_id: z.string().optional(),
    session_link: z.string().optional().describe('A page that shows the run'),
    agent_config: AmbientAgentConfigSchema.optional(),
    agent_skill: RunAgentSkillSchema.optional(),
    request_usage: RequestUsageSchema.optional(),
    execution_location: z.union([z.enum(['LOCAL', 'REMOTE']), z.string()]).optional(),
    conversation_id: z.string().optional(),
    parent_run_id: z.string().optional(),
    trigger_url: z.string().optional(),
    artifacts: z.array(ArtifactItemSchema).optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    scope: ScopeSchema.optional(),
    schedule: RunScheduleSchema.optional(),
    is_sandbox_running: z.boolean().optional(),
    is_run_type_cancellable: z.boolean().optional(),
  })
  .describe('A cloud agent run');

export type RunItem = z.infer<typeof RunItemSchema>;
