import type { ConnectedWorker } from '@agent-runs/core/contract';
import { html, type SafeHtml } from './html.js';
import { age, layout, time } from './layout.js';
import type { DashboardSession } from './dashboard-sessions.js';

function list(values: readonly string[], none: string): SafeHtml {
  return values.length === 0 ? html`<span class="muted">${none}</span>` : html`${values.join(', ')}`;
}

function row(w: ConnectedWorker): SafeHtml {
  // Every value here was announced by a worker process: escaped by html like any run's text.
  return html`<tr><td><code>${w.worker_host}</code></td><td><code>${w.instance_id}</code></td><td>${w.running_runs}/${w.capacity}</td><td>${age(
    w.last_heartbeat_at,
  )}</td><td>${w.draining ? html`<span class="state">draining</span>` : 'no'}</td><td class="hide-narrow">${w.version}</td><td class="hide-narrow">${list(
    w.harnesses,
    'none',
  )}</td><td class="hide-narrow">${list(w.environments, 'any')}</td><td class="hide-narrow">${time(w.connected_at)}</td></tr>`;
}

/** `/workers`: the self-hosted worker processes connected now, by worker host then instance. */
export function workersPage(session: DashboardSession, workers: readonly ConnectedWorker[]): SafeHtml {
  const body = html`<h1>Workers</h1>${
    workers.length === 0
      ? html`<div class="empty"><p>No self-hosted worker is connected.</p><p>Declare a worker token under <code>workers</code> in the server's configuration file, then start one with <code>agent-runs worker --server … --worker-host …</code>.</p></div>`
      : html`<p>A run whose <code>worker_host</code> names one of these runs on it (<code>agent-runs run --worker-host …</code>).</p><div class="table-wrap"><table><thead><tr><th scope="col">Worker host</th><th scope="col">Instance</th><th scope="col">Running</th><th scope="col">Last heartbeat</th><th scope="col">Draining</th><th scope="col" class="hide-narrow">Version</th><th scope="col" class="hide-narrow">Harnesses</th><th scope="col" class="hide-narrow">Environments</th><th scope="col" class="hide-narrow">Connected</th></tr></thead><tbody>${workers.map(
          row,
        )}</tbody></table></div>`
  }`;
  return layout({ title: 'Workers', section: '/workers', session, body });
}
