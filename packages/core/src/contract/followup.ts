import { z } from 'zod';
import { RunModeSchema } from './run-mode.js';
import { RunBudgetSchema } from './run-budget.js';

/** Longest follow-up message accepted, in characters. */
export const MAX_FOLLOWUP_MESSAGE_CHARS = 100_000;

/** The body of `POST /agent/runs/{runId}/followups`. */
export const RunFollowupRequestSchema = z
  .strictObject({
    message: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required: a non-empty message for the run' : 'must be a string') })
      .trim()
      .min(1, 'is required: a non-empty message for the run')
      .max(MAX_FOLLOWUP_MESSAGE_CHARS, `must be at most ${MAX_FOLLOWUP_MESSAGE_CHARS} characters`)
      .describe('What to tell the run'),
    mode: RunModeSchema.optional(),
    budget: RunBudgetSchema.optional().describe('Extension: the run’s new caps from this follow-up on (a BLOCKED run continues under a raised cap)'),
  })
  .describe('A follow-up message to a run, accepted in any state');

export type RunFollowupRequest = z.input<typeof RunFollowupRequestSchema>;

/** What the service answers to a follow-up is not specified; the local server sends this. Parsed leniently. */
export const RunFollowupResponseSchema = z.preprocess(
  // The service may answer with an empty body.
  (value) => value ?? {},
  z
    .looseObject({
      run_id: z.string().optional(),
      state: z.string().optional().describe('The run state after the follow-up was taken'),
      followup_id: z.string().optional(),
    })
    .describe('The answer to a follow-up'),
);

export type RunFollowupResponse = z.infer<typeof RunFollowupResponseSchema>;
