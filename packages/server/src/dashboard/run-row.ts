import type { RequestUsage, RunItem } from '@agent-runs/core/contract';
import { isTerminalState } from '@agent-runs/core/contract';
import { html, type SafeHtml } from './html.js';
import { age, duration } from './layout.js';

/** The harness and model of a run, as its configuration names them. */
export function harnessModel(run: Pick<RunItem, 'agent_config'>): string {
  const config = run.agent_config;
  const harness = config?.harness?.type;
  const model = config?.harness?.model_id ?? config?.model_id;
  return [harness, model].filter(Boolean).join(' · ') || 'default';
}

/** Dollars a run cost, where its usage says; undefined when not known. */
export function costOf(usage: RequestUsage | undefined): number | undefined {
  if (!usage) return undefined;
  const parts = [usage.inference_cost_usd, usage.compute_cost_usd, usage.platform_cost_usd].filter((n): n is number => typeof n === 'number');
  return parts.length ? parts.reduce((a, b) => a + b, 0) : undefined;
}

export function formatCost(usd: number | undefined): string {
  return usd === undefined ? '—' : `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

export function stateBadge(state: string, id?: string): SafeHtml {
  return html`<span class="state state-${state.replace(/[^A-Z]/g, '')}"${id ? html` id="${id}"` : ''}>${state}</span>`;
}


/** How long a run ran: from its start to its end (or now, while it runs). */
export function runDuration(run: RunItem, now = Date.now()): string {
  if (!run.started_at) return '—';
  const end = isTerminalState(run.state) ? Date.parse(run.updated_at) : now;
  return duration(end - Date.parse(run.started_at));
}

/** One row of the runs table; the live stream sends the same markup. */
export function runRow(run: RunItem): SafeHtml {
  return html`<tr data-run-id="${run.run_id}">
<td>${stateBadge(run.state)}</td>
<td class="title"><a href="/runs/${encodeURIComponent(run.run_id)}">${run.title || run.run_id}</a></td>
<td class="hide-narrow">${run.source ?? ''}</td>
<td class="hide-narrow">${harnessModel(run)}</td>
<td class="hide-narrow">${run.agent_config?.environment_id ?? '—'}</td>
<td>${age(run.created_at)}</td>
<td class="hide-narrow">${runDuration(run)}</td>
<td class="hide-narrow">${formatCost(costOf(run.request_usage))}</td>
</tr>`;
}

export const RUN_TABLE_HEAD = html`<thead><tr><th scope="col">State</th><th scope="col">Title</th><th scope="col" class="hide-narrow">Source</th><th scope="col" class="hide-narrow">Harness · model</th><th scope="col" class="hide-narrow">Environment</th><th scope="col">Age</th><th scope="col" class="hide-narrow">Duration</th><th scope="col" class="hide-narrow">Cost</th></tr></thead>`;
