import { z } from 'zod';
import { AmbientAgentConfigSchema } from './ambient-agent-config.js';
import { RunSourceTypeSchema } from './run-source-type.js';
import { RunStateSchema } from './run-state.js';

export const RunStatusMessageSchema = z
  .looseObject({
    message: z.string(),
    error_code: z.string().optional().describe('A PlatformErrorCode such as internal_error'),
    retryable: z.boolean().optional(),
  })
  .describe('Why a run is in its state; for failures, the error code and whether a new run may succeed');

export type RunStatusMessage = z.infer<typeof RunStatusMessageSchema>;

export const RunCreatorInfoSchema = z
  .looseObject({
    type: z.union([z.enum(['user', 'service_account']), z.string()]).optional(),
    uid: z.string().optional(),
    display_name: z.string().optional(),
    email: z.string().optional(),
    photo_url: z.string().optional(),
  })
  .describe('Who created the run');

export type RunCreatorInfo = z.infer<typeof RunCreatorInfoSchema>;

export const RequestUsageSchema = z.looseObject({
  inference_cost: z.number().optional(),
  compute_cost: z.number().optional(),
});

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
    status_message: RunStatusMessageSchema.optional(),
    source: RunSourceTypeSchema.optional(),
    creator: RunCreatorInfoSchema.optional(),
    session_id: z.string().optional(),
    session_link: z.string().optional().describe('A page that shows the run'),
    agent_config: AmbientAgentConfigSchema.optional(),
    request_usage: RequestUsageSchema.optional(),
    execution_location: z.union([z.enum(['LOCAL', 'REMOTE']), z.string()]).optional(),
    conversation_id: z.string().optional(),
    parent_run_id: z.string().optional(),
    trigger_url: z.string().optional(),
    artifacts: z.array(z.unknown()).optional(),
    agent_skill: z.unknown().optional(),
    scope: z.unknown().optional(),
    schedule: z.unknown().optional(),
    is_sandbox_running: z.boolean().optional(),
  })
  .describe('A cloud agent run');

export type RunItem = z.infer<typeof RunItemSchema>;
