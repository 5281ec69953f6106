import { z } from 'zod';
import { RunStateSchema } from './run-state.js';

export const RunAgentResponseSchema = z
  .looseObject({
    run_id: z.string(),
    /** @deprecated the same as run_id */
    task_id: z.string(),
    state: RunStateSchema,
    at_capacity: z.boolean().optional(),
  })
  .describe('The run that was created');

export type RunAgentResponse = z.infer<typeof RunAgentResponseSchema>;
