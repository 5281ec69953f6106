import type { RequestUsage } from '../contract/request-usage.js';

/** Dollars as people read a run's cost: cents for a dollar or more, four places below. */
export function formatUsd(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/**
 * What a run used, in one line: `12,345 tokens, $0.0421` (either part alone when the other
 * is missing); undefined when the run reports no usage.
 */
export function formatUsage(usage: RequestUsage | undefined): string | undefined {
  if (!usage) return undefined;
  const parts: string[] = [];
  if (usage.total_tokens !== undefined) parts.push(`${usage.total_tokens.toLocaleString('en-US')} tokens`);
  if (usage.inference_cost_usd !== undefined) parts.push(formatUsd(usage.inference_cost_usd));
  return parts.length > 0 ? parts.join(', ') : undefined;
}
