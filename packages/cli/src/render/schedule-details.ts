import { visibleText, type ScheduledAgentItem } from '@agent-runs/core';
import type { Paint } from './colors.js';
import { renderTable } from './aligned-table.js';

/** When a schedule fires next, or that it is paused. */
function whenNext(s: ScheduledAgentItem): string {
  return s.enabled ? (s.history?.next_run ?? 'never') : 'paused';
}

export function renderScheduleTable(schedules: readonly ScheduledAgentItem[], paint: Paint): string {
  if (schedules.length === 0) return 'No schedules.\n';
  return renderTable(
    ['SCHEDULE ID', 'CRON', 'NEXT RUN', 'LAST RAN', 'NAME'],
    schedules.map((s) => [s.id, s.cron_schedule, whenNext(s), s.history?.last_ran ?? '-', s.name + (s.last_spawn_error ? ' (last firing failed)' : '')]),
    paint,
  );
}

/** A schedule as `key: value` lines; every value is made visible text. */
export function renderScheduleDetails(s: ScheduledAgentItem, nextRuns: readonly string[] = []): string {
  const rows: [string, string | undefined][] = [
    ['id', s.id],
    ['name', s.name],
    ['cron', `${s.cron_schedule}${typeof s.time_zone === 'string' ? ` (${s.time_zone})` : ''}`],
    ['state', s.enabled ? 'enabled' : 'paused'],
    ['next run', s.enabled ? (s.history?.next_run ?? 'never') : undefined],
    ['last ran', s.history?.last_ran ?? undefined],
    ['last error', s.last_spawn_error ?? undefined],
    ['environment', s.agent_config?.environment_id],
    ['skill', s.agent_config?.skill_spec],
    ['named agent', s.agent_uid],
    ['prompt', s.prompt || undefined],
  ];
  const lines = rows.filter(([, v]) => v !== undefined).map(([k, v]) => `${`${k}:`.padEnd(13)}${visibleText(v!)}`);
  if (nextRuns.length) lines.push(`${'next runs:'.padEnd(13)}${nextRuns.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
