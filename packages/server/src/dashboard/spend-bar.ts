import type { RunItem } from '@agent-runs/core/contract';
import { html, type SafeHtml } from './html.js';
import { formatCost } from './run-row.js';

/**
 * A run's spend against its budget's caps (`agent_config.budget`): one bar per cap it names
 * and its harness reports (cost in dollars, tokens), with the figures in words beside it. A
 * run without such caps shows none; the duration cap is its status message's when it stops.
 */
export function spendBars(run: RunItem): SafeHtml {
  const budget = run.agent_config?.budget;
  const usage = run.request_usage;
  const bars: { label: string; spent: number; cap: number; text: string }[] = [];
  if (budget?.max_cost_usd !== undefined) {
    const spent = usage?.inference_cost_usd ?? 0;
    bars.push({ label: 'Cost', spent, cap: budget.max_cost_usd, text: `${formatCost(spent)} of ${formatCost(budget.max_cost_usd)}` });
  }
  if (budget?.max_tokens !== undefined) {
    const spent = usage?.total_tokens ?? 0;
    bars.push({ label: 'Tokens', spent, cap: budget.max_tokens, text: `${spent.toLocaleString('en-US')} of ${budget.max_tokens.toLocaleString('en-US')}` });
  }
  if (bars.length === 0) return html``;
  return html`<dl class="meta" id="spend">${bars.map(
    (b) => html`<dt>${b.label} budget</dt><dd><progress max="${String(b.cap)}" value="${String(Math.min(b.spent, b.cap))}" aria-label="${b.label} spent of its cap">${b.text}</progress> ${b.text}</dd>`,
  )}</dl>`;
}
