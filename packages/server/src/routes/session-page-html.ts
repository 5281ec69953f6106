import { isTerminalState } from '@agent-runs/core/contract';
import type { RunRecord } from '../runs/run-reads.js';
import { artifactLabel } from '../runs/artifact-label.js';
import { redactAgentConfig } from './redact-agent-config.js';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

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
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
${live ? '<noscript><meta http-equiv="refresh" content="2"></noscript>' : ''}
<title>${escape(run.title)} · ${escape(run.state)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4;color:#222}
table{border-collapse:collapse}td,th{text-align:left;padding:.2rem .8rem .2rem 0;vertical-align:top}
pre{background:#f5f5f5;padding:1rem;overflow:auto;white-space:pre-wrap}
</style>
</head>
<body>
<h1 id="run-title">${escape(run.title)}</h1>
<table>${rows
    .filter(([, v, id]) => v || id)
    .map(([k, v, id]) => `<tr><th>${k}</th><td${id ? ` id="${id}"` : ''}>${escape(v)}</td></tr>`)
    .join('')}</table>
<h2>Prompt</h2>
<pre>${escape(run.prompt)}</pre>
<h2>Configuration</h2>
<pre>${escape(JSON.stringify(redactAgentConfig(run.agentConfig), null, 2))}</pre>
<h2>Artifacts</h2>
<p id="artifacts-none">${artifacts.length ? '' : live ? '(none yet)' : '(none)'}</p>
<ul id="artifacts">${artifacts.map((item) => `<li>${escape(artifactLabel(item))}</li>`).join('')}</ul>
<h2>Output</h2>
${output.omitted ? '<p><small>Earlier output is not shown here; read it all from the API (<code>GET /agent/runs/{runId}/output</code>).</small></p>' : ''}
<pre id="output"${output.text ? '' : ' data-empty="true"'}>${escape(output.text) || '(nothing yet)'}</pre>
${
  live
    ? `<p id="live" data-events="${escape(eventsUrl)}"><small id="live-note">This page refreshes every 2 seconds while the run is live.</small></p>
<script src="/assets/session-live.js" defer></script>`
    : ''
}
</body>
</html>
`;
}
