import type { QuotaUse } from '../runs/principal-quotas.js';
import { html, type SafeHtml } from './html.js';
import { layout, time } from './layout.js';
import type { DashboardSession } from './dashboard-sessions.js';
import { formatCost } from './run-row.js';

/** One quota as a row: its use, its limit (or none), a bar where it has one, and when it frees. */
function row(name: string, what: string, used: number, limit: number | undefined, shown: (n: number) => string, frees: SafeHtml | string = ''): SafeHtml {
  return html`<tr><th scope="row"><code>${name}</code><br><span class="muted">${what}</span></th><td>${shown(used)}</td><td>${
    limit === undefined ? html`<span class="muted">none</span>` : shown(limit)
  }</td><td>${limit === undefined ? '' : html`<progress max="${String(limit)}" value="${String(Math.min(used, limit))}" aria-label="${name} used of its limit"></progress>`}</td><td>${frees}</td></tr>`;
}

/** `/quota`: the signed-in principal's quotas (the configuration file's `quotas:`) and its use of each now. */
export function quotaPage(session: DashboardSession, use: QuotaUse): SafeHtml {
  const count = (n: number) => n.toLocaleString('en-US');
  const minute = use.createsPerMinute;
  const spend = use.spendToday;
  const body = html`<h1>Quotas</h1>
<p>What ${use.principal ? html`<code>${use.principal}</code>` : 'this server\'s caller'} may hold and spend, and holds now. Over a quota a create or follow-up is refused (429, or 402 at the daily spend); the API answers the same at <code>GET /api/v1/agent/quota</code>.</p>
<div class="table-wrap"><table id="quotas"><thead><tr><th scope="col">Quota</th><th scope="col">Used</th><th scope="col">Limit</th><th scope="col">Use</th><th scope="col">Frees</th></tr></thead><tbody>
${row('runs_in_flight', 'runs in progress', use.runsInFlight.used, use.runsInFlight.limit, count)}
${row('runs_queued', 'runs waiting for a slot', use.runsQueued.used, use.runsQueued.limit, count)}
${row('creates_per_minute', 'runs created in the last 60 s', minute.used, minute.limit, count, minute.resetSeconds !== undefined ? `in ${minute.resetSeconds} s` : '')}
${row('spend_per_day_usd', `spent on ${spend.day} (UTC), ${count(spend.tokens)} tokens`, spend.costUsd, spend.limitUsd, formatCost, html`${time(spend.resetsAt)}`)}
</tbody></table></div>`;
  return layout({ title: 'Quotas', section: '/quota', session, body });
}
