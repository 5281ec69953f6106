import { isTerminalState } from '@agent-runs/core/contract';
import type { RunRecord } from '../runs/run-reads.js';
import { artifactLabel } from '../runs/artifact-label.js';
import { html } from '../dashboard/html.js';
import { layout } from '../dashboard/layout.js';
import { SESSION_LIVE_SCRIPT_PATH } from './session-live-script.js';
import { redactAgentConfig } from './redact-agent-config.js';

/** The end of the output shown on the page; `omitted` when earlier output is not shown. */
export interface OutputTail {
  text: string;
  omitted: boolean;
}

/**
 * A plain page for one run: prompt, configuration, state and output. While the run is
 * live, a script follows `eventsUrl` (the page's stream, from the event after those shown) and updates the
 * page in place; without JavaScript the page refreshes itself instead.
 */
export function sessionPageHtml(
  run: RunRecord,
  output: OutputTail,
  executor: string,
  eventsUrl: string,
  artifacts: readonly unknown[] = [],
): string {
  const live = !isTerminalState(run.state);
  // Rows with an id are updated by the live script, so they are shown even while empty.
  const rows: [string, string, string?][] = [
    ['State', run.state, 'run-state'],
    ['Status', run.statusMessage?.message ?? '', 'run-status'],
    ['Run id', run.id],
    ['Created', run.createdAt],
    ['Started', run.startedAt ?? '', 'run-started'],
    ['Updated', run.updatedAt, 'run-updated'],
    ['Source', run.source],
    ['Creator', run.creator.display_name ?? run.creator.uid ?? ''],
    ['Executor', executor],
  ];
  const body = html`<h1 id="run-title">${run.title}</h1>
<table>${rows.filter(([, v, id]) => v || id).map(([k, v, id]) => html`<tr><th>${k}</th><td${id ? html` id="${id}"` : ''}>${v}</td></tr>`)}</table>
<h2>Prompt</h2>
<pre>${run.prompt}</pre>
<h2>Configuration</h2>
<pre>${JSON.stringify(redactAgentConfig(run.agentConfig), null, 2)}</pre>
<h2>Artifacts</h2>
<p id="artifacts-none">${artifacts.length ? '' : live ? '(none yet)' : '(none)'}</p>
<ul id="artifacts">${artifacts.map((item) => html`<li>${artifactLabel(item)}</li>`)}</ul>
<h2>Output</h2>
${output.omitted ? html`<p><small>Earlier output is not shown here; read it all from the API (<code>GET /agent/runs/{runId}/output</code>).</small></p>` : ''}
<pre id="output"${output.text ? '' : html` data-empty="true"`}>${output.text || '(nothing yet)'}</pre>
${live ? html`<p id="live" data-events="${eventsUrl}"><small id="live-note">This page refreshes every 2 seconds while the run is live.</small></p>` : ''}`;
  return layout({
    title: run.title,
    fullTitle: `${run.title} · ${run.state}`,
    body,
    // The live script only while there is something to follow; without JavaScript the page refreshes.
    script: live ? SESSION_LIVE_SCRIPT_PATH : null,
    head: live ? html`<noscript><meta http-equiv="refresh" content="2"></noscript>` : undefined,
  }).text;
}
