import type { ScheduledAgentItem } from '@agent-runs/core/contract';
import type { EnvironmentRegistry } from '../catalog/environment-registry.js';
import type { ScheduleRecord } from '../store/schedules/schedule-store.js';

/** A stored schedule in its wire shape, with its environment's description and the zone it fires in. */
export function toScheduleItem(s: ScheduleRecord, environments: EnvironmentRegistry, timeZone: string): ScheduledAgentItem {
  const envId = s.body.agent_config?.environment_id;
  const env = envId ? environments.get(envId) : undefined;
  return {
    id: s.id,
    name: s.name,
    cron_schedule: s.cronSchedule,
    enabled: s.enabled,
    prompt: s.body.prompt ?? '',
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    agent_config: s.body.agent_config,
    agent_uid: s.body.agent_uid || undefined,
    metadata: s.body.metadata,
    environment: env && environments.toCloudEnvironment(env, undefined).config,
    history: { last_ran: s.lastRan, next_run: s.nextRun },
    last_spawn_error: s.lastSpawnError,
    created_by: s.creator,
    updated_by: s.updatedBy,
    scope: { type: 'User', uid: s.creator.uid || undefined },
    // Extension: the zone its cron expression is read in.
    time_zone: timeZone,
  };
}
