import { z } from 'zod';

/** One model a run can use (`GET /agent/models`). Parsed leniently. */
export const ModelInfoSchema = z
  .looseObject({
    id: z.string().describe('Pass as config.model_id or config.harness.model_id'),
    display_name: z.string(),
    provider: z.union([z.enum(['OPENAI', 'ANTHROPIC', 'GOOGLE', 'UNKNOWN']), z.string()]),
    vision_supported: z.boolean(),
    description: z.string().optional(),
    reasoning_level: z.string().optional(),
    disable_reason: z.union([z.enum(['PROVIDER_OUTAGE', 'OUT_OF_REQUESTS', 'ADMIN_DISABLED', 'REQUIRES_UPGRADE']), z.string()]).optional(),
  })
  .describe('A model runs can use; disable_reason set when it cannot be used now');

export type ModelInfo = z.infer<typeof ModelInfoSchema>;

/** `GET /agent/models`: the models this API can run, and the one used when a run names none. */
export const ListModelsResponseSchema = z
  .looseObject({
    default_model_id: z.string(),
    models: z.array(ModelInfoSchema),
  })
  .describe('The models runs can use');

export type ListModelsResponse = z.infer<typeof ListModelsResponseSchema>;
