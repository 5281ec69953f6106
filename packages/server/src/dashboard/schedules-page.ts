import type { ScheduledAgentItem } from '@agent-runs/core/contract';
import { parseCron } from '@agent-runs/core/cron';
import { html, type SafeHtml } from './html.js';
import { csrfField, errorNote, layout, time } from './layout.js';
import type { DashboardSession } from './dashboard-sessions.js';
import { listPager, type ListPage } from './list-pager.js';

/** The schedules: when each fires next, its last run, pause and resume, edit. */
export function schedulesPage(session: DashboardSession, schedules: readonly ScheduledAgentItem[], where: ListPage = { cursor: undefined, next: undefined }, error?: string): SafeHtml {
  const body = html`<h1>Schedules</h1>
${errorNote(error)}
<p><a class="button" href="/schedules/new">New schedule</a></p>
${
  schedules.length === 0
    ? html`<div class="empty"><p>No schedules yet.</p><p><a href="/schedules/new">Create one</a> to start a run on a cron, or use <code>agent-runs schedules create</code>.</p></div>`
    : html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Cron</th><th scope="col">State</th><th scope="col">Next firing</th><th scope="col" class="hide-narrow">Last run</th><th scope="col">Actions</th></tr></thead><tbody>${schedules.map(
        (s) => html`<tr>
<td class="title"><a href="/schedules/${encodeURIComponent(s.id)}/edit">${s.name}</a>${s.last_spawn_error ? html`<br><span class="error">${s.last_spawn_error}</span>` : ''}</td>
<td><code>${s.cron_schedule}</code></td>
<td>${s.enabled ? 'active' : 'paused'}</td>
<td>${s.enabled ? time(s.history?.next_run) : html`<span class="muted">paused</span>`}</td>
<td class="hide-narrow">${time(s.history?.last_ran)} ${html`<a href="/?schedule_id=${encodeURIComponent(s.id)}">runs</a>`}</td>
<td><form method="post" action="/schedules/${encodeURIComponent(s.id)}/${s.enabled ? 'pause' : 'resume'}">${csrfField(session)}<button type="submit">${
          s.enabled ? 'Pause' : 'Resume'
        }</button></form></td>
</tr>`,
      )}</tbody></table></div>`
}
${listPager('/schedules', where, 'More schedules')}`;
  return layout({ title: 'Schedules', section: '/schedules', session, body });
}

/** The next three firings of a cron, or why it is not one. */
export function cronCheck(expression: string, timeZone: string, now = new Date()): { ok: true; next: Date[] } | { ok: false; reason: string } {
  const parsed = parseCron(expression.trim(), timeZone);
  return parsed.ok ? { ok: true, next: parsed.cron.nextRuns(3, now) } : { ok: false, reason: parsed.reason };
}

export interface ScheduleFormValues {
  name: string;
  cron_schedule: string;
  prompt: string;
  environment_id: string;
  enabled: boolean;
}

/**
 * Create or edit a schedule. "Check" posts the form back to be shown again with whether
 * the cron parses and its next three firings, before anything is saved.
 */
export function scheduleFormPage(
  session: DashboardSession,
  values: ScheduleFormValues,
  target: { id?: string | undefined },
  timeZone: string,
  error?: string,
): SafeHtml {
  const check = values.cron_schedule ? cronCheck(values.cron_schedule, timeZone) : undefined;
  const fields = html`<label for="s-name">Name</label><input id="s-name" name="name" value="${values.name}" required maxlength="200">
<label for="s-cron">Cron (minute hour day-of-month month day-of-week, ${timeZone})</label><input id="s-cron" name="cron_schedule" value="${values.cron_schedule}" required placeholder="0 9 * * 1-5" aria-describedby="cron-check">
<div id="cron-check" aria-live="polite">${
    check === undefined
      ? html`<p class="muted">Check the cron to see its next three firings.</p>`
      : check.ok
        ? html`<p>Next firings:</p><ol>${check.next.map((d) => html`<li>${time(d.toISOString())}</li>`)}</ol>`
        : html`<p class="error">cron_schedule: ${check.reason}</p>`
  }</div>
<label for="s-prompt">Prompt</label><textarea id="s-prompt" name="prompt">${values.prompt}</textarea>
<label for="s-env">Environment id</label><input id="s-env" name="environment_id" value="${values.environment_id}">`;
  const body = html`<p><a href="/schedules">← Schedules</a></p><h1>${target.id ? 'Edit schedule' : 'New schedule'}</h1>
${errorNote(error)}
<form method="post" action="${target.id ? `/schedules/${encodeURIComponent(target.id)}` : '/schedules'}" class="stack">
${csrfField(session)}
${fields}
<label class="inline"><input type="checkbox" name="enabled" value="true"${values.enabled ? html` checked` : ''}> Active</label>
<div class="row"><button type="submit" name="intent" value="check">Check cron</button>
<button type="submit" name="intent" value="save" class="primary">Save</button></div>
</form>`;
  return layout({ title: target.id ? 'Edit schedule' : 'New schedule', section: '/schedules', session, body });
}

/** The form as the body of a schedule's create or update. */
export function scheduleBodyOf(form: URLSearchParams): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: form.get('name') ?? '',
    cron_schedule: form.get('cron_schedule') ?? '',
    enabled: form.get('enabled') === 'true',
  };
  const prompt = form.get('prompt');
  if (prompt?.trim()) body.prompt = prompt;
  const environment = form.get('environment_id')?.trim();
  if (environment) body.agent_config = { environment_id: environment };
  return body;
}

export function scheduleValuesOf(form: URLSearchParams, fallback?: ScheduledAgentItem): ScheduleFormValues {
  const has = form.has('name') || form.has('cron_schedule');
  if (!has && fallback) {
    return {
      name: fallback.name,
      cron_schedule: fallback.cron_schedule,
      prompt: fallback.prompt,
      environment_id: fallback.agent_config?.environment_id ?? '',
      enabled: fallback.enabled,
    };
  }
  return {
    name: form.get('name') ?? '',
    cron_schedule: form.get('cron_schedule') ?? '',
    prompt: form.get('prompt') ?? '',
    environment_id: form.get('environment_id') ?? '',
    enabled: has ? form.get('enabled') === 'true' : true,
  };
}
