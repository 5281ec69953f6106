import type { ArtifactItem, ConversationResponse, RunItem } from '@agent-runs/core/contract';
import { isTerminalState, RUN_MODES } from '@agent-runs/core/contract';
import { html, type SafeHtml } from './html.js';
import { csrfField, errorNote, layout, time } from './layout.js';
import type { DashboardSession } from './dashboard-sessions.js';
import { costOf, formatCost, harnessModel, runDuration, stateBadge } from './run-row.js';
import { runTreeView } from './run-tree-view.js';
import { spendBars } from './spend-bar.js';
import type { RunTreeNode } from '@agent-runs/core/tree';
import { asCommand, asCurl, asWorkflowStep, requestOf } from './run-commands.js';
import { conversationView } from './conversation-view.js';

/** The parts a run's cost is made of, where its usage names them. */
const COST_PARTS = [
  ['inference_cost_usd', 'Inference'],
  ['compute_cost_usd', 'Compute'],
  ['platform_cost_usd', 'Platform'],
] as const;


/** A FILE or SCREENSHOT's download path on this server, or a PLAN's content. */
export interface ArtifactBody {
  path?: string;
  content?: string;
}

export interface RunPageInput {
  session: DashboardSession;
  run: RunItem;
  conversation: ConversationResponse | undefined;
  output: { text: string; omitted: boolean; lastEventId: number };
  /** What artifacts with a body hold, by artifact uid: a signed download path, a plan's text. */
  downloads: ReadonlyMap<string, ArtifactBody>;
  baseUrl: string;
  /** Filters the output shown to lines holding this text (the search without the script). */
  search: string;
  error?: string | undefined;
  notice?: string | undefined;
  /** The runs it started, and theirs (read with `ancestor_run_id`), when there are any. */
  tree?: { root: RunTreeNode; truncated: boolean } | undefined;
}

const isWebLink = (url: string) => /^https?:\/\//i.test(url);

function link(url: string, label: string): SafeHtml {
  return isWebLink(url) ? html`<a href="${url}" rel="noopener noreferrer" target="_blank">${label}</a>` : html`${label} (${url})`;
}

function artifact(item: ArtifactItem, downloads: ReadonlyMap<string, ArtifactBody>): SafeHtml {
  const data = (item as { data?: Record<string, unknown> }).data ?? {};
  const str = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
  const held = downloads.get(str('artifact_uid') || str('document_uid'));
  const download = held?.path;
  switch (item.artifact_type) {
    case 'PULL_REQUEST':
      return html`<li>Pull request: ${link(str('url'), str('branch') || str('url'))}${data['draft'] === true ? html` <span class="muted">(opened as a draft)</span>` : data['draft'] === false ? html` <span class="muted">(opened ready for review)</span>` : ''}</li>`;
    case 'EXTERNAL_REFERENCE':
      return html`<li>Link (${str('reference_type')}): ${link(str('url'), str('url'))}</li>`;
    case 'PLAN':
      return html`<li>Plan: ${str('title') || str('document_uid')}${str('url') ? html` — ${link(str('url'), 'open')}` : ''}${
        held?.content ? html`<pre class="plan">${held.content}</pre>` : ''
      }</li>`;
    case 'SCREENSHOT':
      return html`<li>Screenshot${str('description') ? html`: ${str('description')}` : ''}${
        download ? html`<br><img class="shot" src="${download}" alt="${str('description') || 'Screenshot the agent took'}">` : ''
      }</li>`;
    case 'FILE':
      return html`<li>File: ${download ? html`<a href="${download}" download>${str('filename')}</a>` : str('filename')} <span class="muted">${str('mime_type')}${
        typeof data.size_bytes === 'number' ? ` · ${data.size_bytes} bytes` : ''
      }</span></li>`;
    default:
      return html`<li>${String(item.artifact_type)}</li>`;
  }
}

function timeline(run: RunItem, conversation: ConversationResponse | undefined): SafeHtml {
  const steps = conversation?.steps ?? [];
  return html`<ol class="timeline" id="timeline" aria-label="Timeline">
<li>Queued ${time(run.created_at)}</li>
${run.started_at && !steps.some((step) => step.started_at) ? html`<li>Started ${time(run.started_at)}</li>` : ''}
${steps.map((step, i) => html`<li>${i === 0 ? 'Started' : `Follow-up ${i}`} ${time(step.started_at)}</li>`)}
${isTerminalState(run.state) ? html`<li>${run.state} ${time(run.updated_at)}</li>` : ''}
</ol>`;
}

function copyBlock(id: string, label: string, text: string): SafeHtml {
  return html`<details><summary>Copy as ${label}</summary><pre id="${id}">${text}</pre><button type="button" data-copy="${id}">Copy</button></details>`;
}

/** One run: header and timeline, live output, artifacts, conversation, usage, metadata, request, actions. */
export function runPage(input: RunPageInput): SafeHtml {
  const { session, run, conversation, output, downloads, baseUrl, search } = input;
  const live = !isTerminalState(run.state);
  const id = encodeURIComponent(run.run_id);
  const shown = search ? output.text.split('\n').filter((line) => line.toLowerCase().includes(search.toLowerCase())).join('\n') : output.text;
  const usage = run.request_usage;
  const body = html`<p><a href="/">← Runs</a></p>
<h1 id="run-title">${run.title || run.run_id}</h1>
${errorNote(input.error)}${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ''}
<p class="row">${stateBadge(run.state, 'run-state')} <span id="run-status">${run.status_message?.message ?? ''}</span></p>
${timeline(run, conversation)}
<div class="grid2">
<section aria-labelledby="h-meta"><h2 id="h-meta">Details</h2><dl class="meta">
<dt>Run id</dt><dd><code>${run.run_id}</code></dd>
<dt>Harness · model</dt><dd>${harnessModel(run)}</dd>
<dt>Environment</dt><dd>${run.agent_config?.environment_id ?? '—'}</dd>
${run.agent_config?.worker_host ? html`<dt>Worker</dt><dd><a href="/workers"><code>${run.agent_config.worker_host}</code></a></dd>` : ''}
<dt>Source</dt><dd>${run.source ?? ''}</dd>
<dt>Creator</dt><dd>${run.creator?.display_name ?? run.creator?.uid ?? ''}</dd>
<dt>Created</dt><dd>${time(run.created_at)}</dd>
<dt>Duration</dt><dd>${runDuration(run)}</dd>
${run.schedule ? html`<dt>Schedule</dt><dd>${run.schedule.schedule_name}</dd>` : ''}
${run.agent_skill ? html`<dt>Skill</dt><dd>${run.agent_skill.name}</dd>` : ''}
${run.parent_run_id ? html`<dt>Started by</dt><dd><a href="/runs/${encodeURIComponent(run.parent_run_id)}"><code>${run.parent_run_id}</code></a></dd>` : ''}
${run.conversation_id ? html`<dt>Conversation</dt><dd><code>${run.conversation_id}</code></dd>` : ''}
${Object.entries(run.metadata ?? {}).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}
</dl></section>
<section aria-labelledby="h-usage"><h2 id="h-usage">Usage and cost</h2>${spendBars(run)}<div id="usage">${
    usage
      ? html`<dl class="meta"><dt>Cost</dt><dd>${formatCost(costOf(usage))}</dd>${COST_PARTS.map(([key, label]) =>
          typeof usage[key] === 'number' ? html`<dt>${label}</dt><dd>${formatCost(usage[key])}</dd>` : '',
        )}${usage.total_tokens !== undefined ? html`<dt>Tokens</dt><dd>${usage.total_tokens}</dd>` : ''}</dl>`
      : html`<p class="muted">This run reports no usage.</p>`
  }</div>
<h2>Actions</h2>
<form method="post" action="/runs/${id}/followups" class="stack">${csrfField(session)}
<label for="followup-message">Follow-up message</label><textarea id="followup-message" name="message" required maxlength="100000"></textarea>
<label>Mode<select name="mode">${RUN_MODES.map((mode) => html`<option${mode === 'normal' ? html` value=""` : ''}>${mode}</option>`)}</select></label>
<button type="submit" class="primary">Send follow-up</button></form>
<div class="row actions" id="run-actions">
${live ? html`<form method="post" action="/runs/${id}/cancel">${csrfField(session)}<button type="submit" class="danger">Cancel run</button></form>` : ''}
<form method="post" action="/runs/${id}/again">${csrfField(session)}<button type="submit">Run again</button></form>
</div>
</section>
</div>
<section aria-labelledby="h-output"><h2 id="h-output">Output</h2>
<form method="get" action="/runs/${id}" class="row" role="search" aria-label="Search the output">
<label class="inline" for="output-search">Search</label><input id="output-search" type="search" name="q" value="${search}">
<button type="submit">Find</button> <span id="output-count" class="muted" aria-live="polite"></span>
<button type="button" id="output-pause" aria-pressed="false" hidden>Pause output</button></form>
${output.omitted ? html`<p class="muted">Earlier output is not shown; read it all with <code>GET /api/v1/agent/runs/${run.run_id}/output</code>.</p>` : ''}
<pre id="output" tabindex="0" aria-label="Output"${output.text ? '' : html` data-empty="true"`}>${shown || '(nothing yet)'}</pre>
${live ? html`<p data-run-events="/runs/${id}/events?last_event_id=${String(output.lastEventId)}" data-run-version="${`${run.state} ${run.artifacts?.length ?? 0}`}"><small id="live-note">This page shows the output so far; reload for more.</small></p>` : ''}
</section>
${runTreeView(input.tree?.root, input.tree?.truncated ?? false)}
<section aria-labelledby="h-artifacts" id="artifacts-section"><h2 id="h-artifacts">Artifacts</h2>${
    run.artifacts?.length ? html`<ul id="artifacts">${run.artifacts.map((a) => artifact(a, downloads))}</ul>` : html`<p class="muted">${live ? 'None yet.' : 'None.'}</p>`
  }</section>
<section aria-labelledby="h-conversation" id="conversation-section"><h2 id="h-conversation">Conversation</h2>${conversationView(conversation)}</section>
<section aria-labelledby="h-request"><h2 id="h-request">Request</h2>
<pre>${JSON.stringify(requestOf(run), null, 2)}</pre>
${copyBlock('copy-command', 'agent-runs command', asCommand(run, baseUrl))}
${copyBlock('copy-curl', 'curl', asCurl(run, baseUrl))}
${copyBlock('copy-step', 'workflow step', asWorkflowStep(run, baseUrl))}
</section>`;
  return layout({ title: `${run.title} · ${run.state}`, section: '/', session, body });
}
