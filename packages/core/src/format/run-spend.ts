import type { RunItem } from '../contract/run-item.js';

const usd = (n: number) => `$${n < 1 ? n.toFixed(4).replace(/0{1,2}$/, '') : n.toFixed(2)}`;

/**
 * What a run has spent against its caps, for a run that has a cost or token cap:
 * `$0.42 of $1.00`, `12,034 of 50,000 tokens`; undefined otherwise.
 */
export function formatSpend(run: RunItem | undefined): string | undefined {
  const budget = run?.agent_config?.budget;
  if (!budget) return undefined;
  const usage = run?.request_usage;
  const parts: string[] = [];
  if (budget.max_cost_usd !== undefined) parts.push(`${usd(usage?.inference_cost_usd ?? 0)} of ${usd(budget.max_cost_usd)}`);
  if (budget.max_tokens !== undefined) parts.push(`${(usage?.total_tokens ?? 0).toLocaleString('en-US')} of ${budget.max_tokens.toLocaleString('en-US')} tokens`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}
