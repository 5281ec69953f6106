import type { ScheduledAgentItem } from '@agent-runs/core';

/** One line for a schedule: what, when (with the time zone its cron is read in), whether it is on, and what went wrong last. */
export function summarizeSchedule(s: ScheduledAgentItem): string {
  // The service reads cron in UTC unless the server names another zone.
  const zone = typeof s.time_zone === 'string' && s.time_zone !== '' ? s.time_zone : 'UTC';
  const state = s.enabled ? `next run ${s.history?.next_run ?? 'none'}` : 'paused';
  const error = s.last_spawn_error ? `; last firing failed: ${s.last_spawn_error}` : '';
  return `- ${s.name} (id ${s.id}): "${s.cron_schedule}" (${zone}), ${state}${s.history?.last_ran ? `, last ran ${s.history.last_ran}` : ''}${error}`;
}
