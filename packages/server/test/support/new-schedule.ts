import type { ScheduleRecord } from '../../src/store/schedules/schedule-store.js';

/** A moment of 2026-01-01, `second` seconds past midnight, as stores keep times. */
export const time = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;

/** A stored schedule's fields as a store test writes them: enabled, every 5 minutes, next due at 00:00:30. */
export function newSchedule(id: string, extra: Partial<ScheduleRecord> = {}): ScheduleRecord {
  return {
    id,
    name: `schedule ${id}`,
    cronSchedule: '*/5 * * * *',
    enabled: true,
    body: { prompt: 'p', metadata: { k: 'v' } },
    creator: { uid: 'user-1' },
    createdAt: time(0),
    updatedAt: time(0),
    updatedBy: { uid: 'user-1' },
    lastRan: null,
    nextRun: time(30),
    lastSpawnError: null,
    ...extra,
  };
}
