import { randomUUID } from 'node:crypto';
import { RUN_REQUEST_LIMITS } from '@agent-runs/core/contract';
import { html, type SafeHtml } from './html.js';
import { csrfField, errorNote, layout } from './layout.js';
import type { DashboardSession } from './dashboard-sessions.js';
import { attachmentLimits } from './form-attachments.js';
import type { ModelChoices } from './model-choices.js';

export interface NewRunChoices extends ModelChoices {
  environments: readonly { uid: string; name: string }[];
  skills: readonly string[];
  agents: readonly { uid: string; name: string }[];
  /** More named agents exist than `agents` holds: the field takes a typed uid, `agents` as suggestions. */
  moreAgents: boolean;
}

function options(list: readonly { value: string; label: string }[], selected: string | null): SafeHtml {
  return html`${list.map((o) => html`<option value="${o.value}"${o.value === selected ? html` selected` : ''}>${o.label}</option>`)}`;
}

/** A harness or model that cannot be used now: listed, named with its reason, not selectable. */
function choice(value: string, label: string, unavailable: string | undefined, selected: string): SafeHtml {
  if (unavailable) return html`<option value="${value}" disabled>${label} (unavailable: ${unavailable})</option>`;
  return html`<option value="${value}"${value === selected ? html` selected` : ''}>${label}</option>`;
}

/** The named agent: a list to pick from, or, when there are more than one page of them, a uid to type with the first page suggested. */
function agentField(choices: NewRunChoices, selected: string): SafeHtml {
  const list = choices.agents.map((a) => ({ value: a.uid, label: a.name }));
  if (!choices.moreAgents) {
    return html`<label for="agent">Named agent</label><select id="agent" name="agent_identity_uid"><option value="">none</option>${options(list, selected)}</select>`;
  }
  return html`<label for="agent">Named agent (its uid; the first ${list.length} are suggested)</label><input id="agent" name="agent_identity_uid" list="agent-choices" value="${selected}" autocomplete="off"><datalist id="agent-choices">${options(list, null)}</datalist>`;
}

/** The harness and model pickers, from the model catalog, models grouped by harness. */
function modelFields(choices: ModelChoices, harness: string, model: string): SafeHtml {
  const groups = [...new Set(choices.models.map((m) => m.harness))];
  const blocked = choices.harnesses.filter((h) => h.unavailable);
  return html`<label for="harness">Harness</label><select id="harness" name="harness"${blocked.length ? html` aria-describedby="harness-note"` : ''}><option value="">server default</option>${choices.harnesses.map(
    (h) => choice(h.name, h.name, h.unavailable, harness),
  )}</select>
<label for="model">Model</label><select id="model" name="model_id"${blocked.length ? html` aria-describedby="harness-note"` : ''}><option value="">the harness's default</option>${groups.map(
    (group) => html`<optgroup label="${group}">${choices.models.filter((m) => m.harness === group).map((m) => choice(m.id, m.label, m.unavailable, model))}</optgroup>`,
  )}</select>
${
  blocked.length
    ? html`<ul id="harness-note" class="muted note">${blocked.map((h) => html`<li>${h.name} and its models are unavailable: ${h.unavailable}.</li>`)}</ul>`
    : ''
}`;
}

/** The start-a-run form; `values` refills it after an error (files are chosen again). */
export function newRunPage(session: DashboardSession, choices: NewRunChoices, values: URLSearchParams = new URLSearchParams(), error?: string): SafeHtml {
  const v = (name: string) => values.get(name) ?? '';
  const body = html`<h1>Start a run</h1>
<form method="post" action="/runs" enctype="multipart/form-data" class="stack">
${errorNote(error)}
${csrfField(session)}
<input type="hidden" name="idempotency_key" value="${v('idempotency_key') || randomUUID()}">
<label for="prompt">Prompt</label><textarea id="prompt" name="prompt" maxlength="100000">${v('prompt')}</textarea>
<label for="title">Title (made from the prompt when empty)</label><input id="title" name="title" value="${v('title')}" maxlength="500">
<label for="environment">Environment</label><select id="environment" name="environment_id"><option value="">none</option>${options(
    choices.environments.map((e) => ({ value: e.uid, label: e.name })),
    v('environment_id'),
  )}</select>
<label for="skill">Skill</label><select id="skill" name="skill"><option value="">none</option>${options(
    choices.skills.map((s) => ({ value: s, label: s })),
    v('skill'),
  )}</select>
${agentField(choices, v('agent_identity_uid'))}
${modelFields(choices, v('harness'), v('model_id'))}
<label for="attachments">Attachments (${attachmentLimits()})</label><input type="file" id="attachments" name="attachments" multiple data-max-files="${RUN_REQUEST_LIMITS.attachments}" data-max-bytes="${RUN_REQUEST_LIMITS.attachmentBytes}" data-max-total="${RUN_REQUEST_LIMITS.attachmentsTotalBytes}" data-limits="attach ${attachmentLimits()}">
<button type="submit" class="primary">Start the run</button>
</form>`;
  return layout({ title: 'Start a run', section: '/new', session, body });
}

/** The form's fields as the body of `POST /agent/runs`; empty fields are left out. */
export function runRequestOf(form: URLSearchParams, picked: { harness?: string; model?: string } = {}): Record<string, unknown> {
  const get = (name: string) => form.get(name)?.trim() || undefined;
  const config: Record<string, unknown> = {};
  const environment = get('environment_id');
  if (environment) config.environment_id = environment;
  const harness = picked.harness ?? get('harness');
  const model = picked.model ?? get('model_id');
  if (harness || model) config.harness = { ...(harness ? { type: harness } : {}), ...(model ? { model_id: model } : {}) };
  if (model) config.model_id = model;
  const body: Record<string, unknown> = {};
  const prompt = form.get('prompt') ?? '';
  if (prompt.trim()) body.prompt = prompt;
  const title = get('title');
  if (title) body.title = title;
  const skill = get('skill');
  if (skill) body.skill = skill;
  const agent = get('agent_identity_uid');
  if (agent) body.agent_identity_uid = agent;
  if (Object.keys(config).length) body.config = config;
  return body;
}
