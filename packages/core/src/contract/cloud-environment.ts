import { z } from 'zod';
import { RunStateSchema } from './run-state.js';

/** An environment's definition: what is checked out and what runs before the agent. */
export const CloudEnvironmentConfigSchema = z
  .looseObject({
    name: z.string().optional(),
    description: z.string().nullable().optional(),
    docker_image: z.string().optional(),
    github_repos: z.array(z.looseObject({ owner: z.string(), repo: z.string() })).optional(),
    setup_commands: z.array(z.string()).optional(),
    providers: z.unknown().optional(),
    failure_session_retention_minutes: z.number().nullable().optional(),
  })
  .describe('What an environment checks out and runs before the agent starts');

export type CloudEnvironmentConfig = z.infer<typeof CloudEnvironmentConfigSchema>;

const UserProfileSchema = z.looseObject({
  type: z.string().optional(),
  uid: z.string().optional(),
  display_name: z.string().optional(),
  email: z.string().optional(),
  photo_url: z.string().optional(),
});

/** One environment runs can execute in (`GET /agent/environments`). Parsed leniently. */
export const CloudEnvironmentSchema = z
  .looseObject({
    uid: z.string().describe('Pass as config.environment_id'),
    config: CloudEnvironmentConfigSchema,
    last_updated: z.string(),
    setup_failed: z.boolean(),
    last_task_run_timestamp: z.string().nullable().optional().describe('When a run last started in it (RFC 3339)'),
    last_task_created: z
      .looseObject({
        id: z.string(),
        title: z.string(),
        state: RunStateSchema,
        created_at: z.string(),
        updated_at: z.string(),
        started_at: z.string().nullable().optional(),
      })
      .optional(),
    creator: UserProfileSchema.optional(),
    last_editor: UserProfileSchema.optional(),
    scope: z.looseObject({ type: z.string(), uid: z.string().optional() }).optional(),
  })
  .describe('An environment runs can execute in');

export type CloudEnvironment = z.infer<typeof CloudEnvironmentSchema>;

export const ListEnvironmentsResponseSchema = z.looseObject({ environments: z.array(CloudEnvironmentSchema) });
export type ListEnvironmentsResponse = z.infer<typeof ListEnvironmentsResponseSchema>;

export const ENVIRONMENT_SORT_FIELDS = ['name', 'last_updated'] as const;

/** The query of `GET /agent/environments`. */
export const ListEnvironmentsQuerySchema = z.strictObject({
  sort_by: z
    .enum(ENVIRONMENT_SORT_FIELDS, { error: `must be one of ${ENVIRONMENT_SORT_FIELDS.join(', ')}` })
    .optional()
    .describe('Sort field (default name)'),
});

export type ListEnvironmentsQuery = z.input<typeof ListEnvironmentsQuerySchema>;
