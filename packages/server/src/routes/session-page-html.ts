import { isTerminalState } from '@agent-runs/core/contract';
import type { RunRecord } from '../store/run-record.js';
import { redactAgentConfig } from './redact-agent-config.js';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain page for one run: prompt, configuration, state and output; it refreshes while the run is live. */
export function sessionPageHtml(run: RunRecord, output: string, executor: string): string {
  const live = !isTerminalState(run.state);
  const rows: [string, string][] = [
    ['State', run.state],
    ['Status', run.statusMessage?.message ?? ''],
    ['Run id', run.id],
    ['Created', run.createdAt],
    ['Started', run.startedAt ?? ''],
    ['Updated', run.updatedAt],
    ['Source', run.source],
    ['Creator', run.creator.display_name ?? run.creator.uid ?? ''],
    ['Executor', executor],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${live ? '<meta http-equiv="refresh" content="2">' : ''}
<title>${escape(run.title)} · ${escape(run.state)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4;color:#222}
table{border-collapse:collapse}td,th{text-align:left;padding:.2rem .8rem .2rem 0;vertical-align:top}
pre{background:#f5f5f5;padding:1rem;overflow:auto;white-space:pre-wrap}
</style>
</head>
<body>
<h1>${escape(run.title)}</h1>
<table>${rows
    .filter(([, v]) => v)
    .map(([k, v]) => `<tr><th>${k}</th><td>${escape(v)}</td></tr>`)
    .join('')}</table>
<h2>Prompt</h2>
<pre>${escape(run.prompt)}</pre>
<h2>Configuration</h2>
<pre>${escape(JSON.stringify(redactAgentConfig(run.agentConfig), null, 2))}</pre>
<h2>Output</h2>
<pre>${escape(output) || '(nothing yet)'}</pre>
${live ? '<p><small>This page refreshes every 2 seconds while the run is live.</small></p>' : ''}
</body>
</html>
`;
}
