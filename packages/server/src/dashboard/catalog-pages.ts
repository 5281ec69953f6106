import type { AgentIdentity, ListAgentSkillsResponse, ListEnvironmentsResponse } from '@agent-runs/core/contract';
import { html, type SafeHtml } from './html.js';
import { layout, time } from './layout.js';
import type { DashboardSession } from './dashboard-sessions.js';
import { listPager, type ListPage } from './list-pager.js';

function empty(what: string, next: SafeHtml): SafeHtml {
  return html`<div class="empty"><p>${what}</p><p>${next}</p></div>`;
}

export function environmentsPage(session: DashboardSession, list: ListEnvironmentsResponse): SafeHtml {
  const body = html`<h1>Environments</h1>${
    list.environments.length === 0
      ? empty('No environments are configured.', html`Add one under <code>environments</code> in the server's configuration file, then restart it.`)
      : html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col" class="hide-narrow">Last run</th><th scope="col">Runs</th></tr></thead><tbody>${list.environments.map(
          (e) => html`<tr><td>${e.config.name ?? e.uid}${e.setup_failed ? html` <span class="state state-FAILED">setup failed</span>` : ''}</td><td><code>${e.uid}</code></td><td class="hide-narrow">${time(
            e.last_task_run_timestamp,
          )}</td><td><a href="/?environment_id=${encodeURIComponent(e.uid)}">runs</a></td></tr>`,
        )}</tbody></table></div>`
  }`;
  return layout({ title: 'Environments', section: '/environments', session, body });
}

export function skillsPage(session: DashboardSession, list: ListAgentSkillsResponse): SafeHtml {
  const body = html`<h1>Skills</h1>${
    list.agents.length === 0
      ? empty('No skills are known.', html`List repositories under <code>skills</code> in the server's configuration; their SKILL.md files appear here.`)
      : html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Variant</th><th scope="col" class="hide-narrow">Description</th><th scope="col" class="hide-narrow">Last run</th></tr></thead><tbody>${list.agents.map(
          (skill) =>
            html`${skill.variants.map(
              (v) => html`<tr><td>${skill.name}</td><td><code>${v.id}</code>${v.error ? html`<br><span class="error">${v.error}</span>` : ''}</td><td class="hide-narrow">${v.description}</td><td class="hide-narrow">${time(
                v.last_run_timestamp,
              )}</td></tr>`,
            )}`,
        )}</tbody></table></div>`
  }`;
  return layout({ title: 'Skills', section: '/skills', session, body });
}

export function agentsPage(session: DashboardSession, list: readonly AgentIdentity[], where: ListPage = { cursor: undefined, next: undefined }): SafeHtml {
  const body = html`<h1>Named agents</h1>${
    list.length === 0
      ? empty('No named agents yet.', html`Create one with <code>agent-runs agents create --name reviewer --prompt "…"</code>.`)
      : html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Uid</th><th scope="col" class="hide-narrow">Description</th><th scope="col" class="hide-narrow">Environment</th><th scope="col" class="hide-narrow">Skills</th></tr></thead><tbody>${list.map(
          (a) => html`<tr><td><a href="/agents/${encodeURIComponent(a.uid)}/edit">${a.name}</a>${a.available ? '' : html` <span class="muted">(unavailable)</span>`}</td><td><code>${a.uid}</code></td><td class="hide-narrow">${a.description ?? ''}</td><td class="hide-narrow">${
            a.environment_id ?? '—'
          }</td><td class="hide-narrow">${a.skills.join(', ')}</td></tr>`,
        )}</tbody></table></div>`
  }
${listPager('/agents', where, 'More named agents')}`;
  return layout({ title: 'Named agents', section: '/agents', session, body });
}

/** The fields of a named agent the dashboard edits; an empty one is removed. */
export const AGENT_FIELDS = [
  ['name', 'Name'],
  ['description', 'Description'],
  ['prompt', 'Standing instructions (base prompt of its runs)'],
  ['environment_id', 'Environment id'],
  ['base_model', 'Model of its runs'],
] as const;

export function agentFormPage(session: DashboardSession, agent: AgentIdentity, values?: URLSearchParams, error?: string): SafeHtml {
  const value = (name: string) => values?.get(name) ?? (typeof (agent as Record<string, unknown>)[name] === 'string' ? ((agent as Record<string, unknown>)[name] as string) : '');
  const body = html`<p><a href="/agents">← Named agents</a></p><h1>Edit ${agent.name}</h1>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/agents/${encodeURIComponent(agent.uid)}" class="stack">
<input type="hidden" name="csrf" value="${session.csrf}">
${AGENT_FIELDS.map(([name, label]) =>
  name === 'prompt'
    ? html`<label for="a-${name}">${label}</label><textarea id="a-${name}" name="${name}">${value(name)}</textarea>`
    : html`<label for="a-${name}">${label}</label><input id="a-${name}" name="${name}" value="${value(name)}"${name === 'name' ? html` required` : ''}>`,
)}
<button type="submit" class="primary">Save</button>
</form>`;
  return layout({ title: `Edit ${agent.name}`, section: '/agents', session, body });
}

/** The form as the body of `PUT /agent/identities/{uid}`: an emptied field is removed (null). */
export function agentUpdateOf(form: URLSearchParams): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name] of AGENT_FIELDS) {
    const value = form.get(name)?.trim() ?? '';
    if (name === 'name') body.name = value;
    else body[name] = value === '' ? null : value;
  }
  return body;
}
