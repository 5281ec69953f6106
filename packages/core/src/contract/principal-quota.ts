import { z } from 'zod';

/** A count held at once against its limit (null: no limit applies). */
const HeldCountSchema = z.looseObject({
  used: z.number().int().describe('Runs held now (counted up to 10,000)'),
  limit: z.number().int().nullable().describe('The quota (null: none applies)'),
});

/** The answer of `GET /agent/quota` (an extension): the caller's quotas and where it stands against each now. */
export const PrincipalQuotaResponseSchema = z
  .looseObject({
    principal: z.string().nullable().describe('The calling principal (null on a server without API keys)'),
    runs_in_flight: HeldCountSchema.describe('Runs in progress (runs_in_flight)'),
    runs_queued: HeldCountSchema.describe('Runs queued (runs_queued)'),
    creates_per_minute: z
      .looseObject({
        used: z.number().int().describe('Runs created (follow-ups that queued a run included) in the last 60 seconds'),
        limit: z.number().int().nullable().describe('The quota (null: none applies)'),
        resets_in_seconds: z.number().int().nullable().describe('Seconds until the oldest create of the window leaves it (null: no quota)'),
      })
      .describe('Creates per minute (creates_per_minute)'),
    spend_today: z
      .looseObject({
        day: z.string().describe('The UTC day counted (YYYY-MM-DD)'),
        spent_usd: z.number().describe("Dollars the principal's runs spent this UTC day, as their usage was reported"),
        tokens: z.number().int().describe('Tokens they used this UTC day'),
        limit_usd: z.number().nullable().describe('The daily cap, spend_per_day_usd (null: none applies)'),
        resets_at: z.string().describe('When the count starts again: the next UTC midnight (ISO 8601)'),
      })
      .describe("The daily spend (spend_per_day_usd): at the cap, creates and follow-ups are refused with 402 budget_exceeded and runs in progress end BLOCKED"),
  })
  .describe("The calling principal's quotas and its use of them now");

export type PrincipalQuotaResponse = z.infer<typeof PrincipalQuotaResponseSchema>;
