import type { ListRunsResponse } from '@agent-runs/core/contract';
import { KNOWN_RUN_SOURCE_TYPES, KNOWN_RUN_STATES } from '@agent-runs/core/contract';
import { html, type SafeHtml } from './html.js';
import { errorNote, layout } from './layout.js';
import type { DashboardSession } from './dashboard-sessions.js';
import { RUN_TABLE_HEAD, runRow } from './run-row.js';
import { withCursor } from './runs-query.js';

function select(name: string, label: string, options: readonly string[], value: string | null): SafeHtml {
  return html`<label>${label}<select name="${name}"><option value="">any</option>${options.map(
    (o) => html`<option${o === value ? html` selected` : ''}>${o}</option>`,
  )}</select></label>`;
}

function field(name: string, label: string, value: string | null, type = 'text'): SafeHtml {
  return html`<label>${label}<input type="${type}" name="${name}" value="${value ?? ''}"></label>`;
}

export interface RunsPageInput {
  session: DashboardSession;
  url: URLSearchParams;
  page: ListRunsResponse | undefined;
  error?: string | undefined;
  /** The live stream of this page. */
  liveUrl: string;
  environments: readonly string[];
}

/** The runs view: filters (in the URL), the table, cursor pages. */
export function runsPage({ session, url, page, error, liveUrl, environments }: RunsPageInput): SafeHtml {
  const filtered = ['state', 'source', 'environment_id', 'schedule_id', 'creator', 'q', 'from', 'to'].some((n) => url.get(n));
  const runs = page?.runs ?? [];
  const firstPage = !url.get('cursor');
  const next = page?.page_info.next_cursor;
  const body = html`<h1>Runs</h1>
<form class="filters" method="get" action="/" role="search" aria-label="Filter runs">
${select('state', 'State', KNOWN_RUN_STATES, url.get('state'))}
${select('source', 'Source', KNOWN_RUN_SOURCE_TYPES, url.get('source'))}
${select('environment_id', 'Environment', environments, url.get('environment_id'))}
${field('schedule_id', 'Schedule id', url.get('schedule_id'))}
${field('creator', 'Creator', url.get('creator'))}
${field('q', 'Text', url.get('q'), 'search')}
${field('from', 'Created from', url.get('from'), 'date')}
${field('to', 'Created to', url.get('to'), 'date')}
<button type="submit">Filter</button>${filtered ? html` <a href="/">Clear</a>` : ''}
</form>
${errorNote(error)}
${
  runs.length === 0 && !error
    ? html`<div class="empty" id="runs-empty"><p>${filtered ? 'No run matches these filters.' : 'No runs yet.'}</p><p>${
        filtered ? html`<a href="/">Show every run</a> or ` : ''
      }<a href="/new">start a run</a>, or create one with <code>agent-runs run "…"</code>.</p></div>`
    : ''
}
<div class="table-wrap">
<table id="runs" data-live-runs="${liveUrl}" data-first-page="${firstPage ? 'true' : 'false'}"${runs.length === 0 ? html` hidden` : ''}>
<caption class="muted">Newest first${firstPage ? '; new runs appear on top' : ''}</caption>
${RUN_TABLE_HEAD}
<tbody>${runs.map(runRow)}</tbody>
</table>
</div>
<nav class="pager" aria-label="Pages">${firstPage ? '' : html`<a href="${withCursor(url, undefined)}">Newest</a>`}${
    next ? html`<a href="${withCursor(url, next)}" rel="next">Older runs</a>` : ''
  }</nav>`;
  return layout({ title: 'Runs', section: '/', session, body });
}
