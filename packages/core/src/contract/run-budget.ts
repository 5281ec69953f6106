import { z } from 'zod';

/** The largest caps a run may name: beyond them a cap is a mistake, not a budget. */
export const BUDGET_LIMITS = {
  max_cost_usd: 100_000,
  max_tokens: 10_000_000_000,
  // A week: a timer of Node.js holds at most 24.8 days, and no agent run should need more.
  max_duration_seconds: 7 * 24 * 3600,
} as const;

export type BudgetField = keyof typeof BUDGET_LIMITS;
export const BUDGET_FIELDS = Object.keys(BUDGET_LIMITS) as BudgetField[];

/** The smallest cap of each kind (inclusive bounds: the OpenAPI 3.0 document has no portable exclusive one). */
export const BUDGET_MINIMA = { max_cost_usd: 0.0001, max_tokens: 1, max_duration_seconds: 1 } as const;

function cap(field: BudgetField, integer: boolean) {
  const min = BUDGET_MINIMA[field];
  const max = BUDGET_LIMITS[field];
  const range = `a ${integer ? 'whole number' : 'number'} from ${min} to ${max}`;
  const base = z.number({ error: `must be ${range}` });
  return (integer ? base.int(`must be ${range}`) : base)
    .min(min, `must be ${range}`)
    .max(max, `must be ${range}`)
    .optional();
}

/**
 * Our extension: caps on what one run may spend. At a cap the agent is stopped and the run
 * ends BLOCKED; a follow-up with a raised cap continues it. At least one cap is given.
 */
export const RunBudgetCapsSchema = z.strictObject({
  max_cost_usd: cap('max_cost_usd', false).describe(`Stop the run once its inference cost reaches this many US dollars (${BUDGET_MINIMA.max_cost_usd}..${BUDGET_LIMITS.max_cost_usd})`),
  max_tokens: cap('max_tokens', true).describe(`Stop the run once it has used this many tokens (1..${BUDGET_LIMITS.max_tokens})`),
  max_duration_seconds: cap('max_duration_seconds', true).describe(`Stop an execution of the run after this many seconds (1..${BUDGET_LIMITS.max_duration_seconds})`),
});

/** The caps as a run names them: at least one. */
export const RunBudgetSchema = RunBudgetCapsSchema
  .refine((budget) => BUDGET_FIELDS.some((field) => budget[field] !== undefined), {
    message: `needs at least one of ${BUDGET_FIELDS.join(', ')}`,
  })
  .describe('Extension: caps on the run’s cost, tokens and wall time; at a cap the run ends BLOCKED')
  // Marked in the OpenAPI document as ours, as the server's extension operations are.
  .meta({ 'x-agent-runs-extension': true });

export type RunBudget = z.infer<typeof RunBudgetSchema>;
