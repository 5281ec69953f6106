import { RunBudgetCapsSchema, type RunBudget } from '@agent-runs/core';

const caps = RunBudgetCapsSchema.shape;

/**
 * The caps of a run's budget as arguments of create_run and follow_up_run, beside `config`
 * (where `config.budget` works too): at a cap the agent is stopped and the run ends BLOCKED;
 * a follow-up with a raised cap continues it.
 */
export const BUDGET_ARGUMENTS = {
  max_cost_usd: caps.max_cost_usd.describe('Stop the run (BLOCKED) once its inference cost reaches this many US dollars; sets config.budget.max_cost_usd'),
  max_tokens: caps.max_tokens.describe('Stop the run (BLOCKED) once it has used this many tokens; sets config.budget.max_tokens'),
  max_duration_seconds: caps.max_duration_seconds.describe('Stop each execution (BLOCKED) after this many seconds; sets config.budget.max_duration_seconds'),
};

/** The budget the arguments name, or undefined when they name no cap. */
export function budgetOf(given: RunBudget): RunBudget | undefined {
  const budget = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as RunBudget;
  return Object.keys(budget).length > 0 ? budget : undefined;
}
