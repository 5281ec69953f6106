import type { RequestUsage, RunBudget, RunStatusMessage } from '@agent-runs/core/contract';

/** A run's spend against its budget's caps: why it must stop, or undefined while it is under them all. */
export function budgetReached(budget: RunBudget, usage: RequestUsage | undefined): string | undefined {
  const cost = usage?.inference_cost_usd;
  if (budget.max_cost_usd !== undefined && cost !== undefined && cost >= budget.max_cost_usd) {
    return `$${formatUsd(cost)} spent of max_cost_usd ${budget.max_cost_usd}`;
  }
  const tokens = usage?.total_tokens;
  if (budget.max_tokens !== undefined && tokens !== undefined && tokens >= budget.max_tokens) {
    return `${tokens} tokens used of max_tokens ${budget.max_tokens}`;
  }
  return undefined;
}

/** The wall time an execution took against the run's duration cap. */
export function durationReached(budget: RunBudget, elapsedMs: number): string {
  return `${Math.round(elapsedMs / 1000)} s run of max_duration_seconds ${budget.max_duration_seconds}`;
}

/** The status message of a run stopped at its budget: what was spent against which cap, and how to go on. */
export function budgetStopMessage(spent: string): RunStatusMessage {
  return {
    message: `stopped at the budget: ${spent}. A follow-up with a raised agent_config budget (its "budget" member) continues the run.`,
    error_code: 'budget_exceeded',
    retryable: false,
  };
}

/** Dollars with enough digits to tell a small spend from its cap (four significant ones below a dollar). */
function formatUsd(usd: number): string {
  return usd >= 1 ? usd.toFixed(2) : String(Number(usd.toPrecision(4)));
}
