import {
  PAGE_LIMIT_DEFAULT,
  ScheduleCreateRequestSchema,
  ScheduleUpdateRequestSchema,
  type ListSchedulesResponse,
  type RunCreatorInfo,
  type ScheduledAgentItem,
} from '@agent-runs/core/contract';
import { pageInfo, pageStart, type PageRequest } from '../store/owned-page.js';
import type { EnvironmentRegistry } from '../catalog/environment-registry.js';
import { NotFoundError } from '../domain/domain-errors.js';
import type { ServerClock } from '../domain/server-clock.js';
import type { ScheduleRecord, ScheduleStore } from '../store/schedules/schedule-store.js';
import { timeOrderedId } from '../store/time-ordered-id.js';
import { ScheduleLocks } from './schedule-locks.js';
import { bodyOf, type ScheduleRules } from './schedule-rules.js';
import { toScheduleItem } from './to-schedule-item.js';

/** Schedules as callers see them: create, read, replace, delete, pause and resume (firing is ScheduleFiring's). */
export class ScheduleService {
  constructor(
    private readonly store: ScheduleStore,
    private readonly rules: ScheduleRules,
    private readonly environments: EnvironmentRegistry,
    private readonly clock: ServerClock,
    /** Every key sees every schedule; otherwise a key sees those its principal created. */
    private readonly shared = false,
    /** Shared with ScheduleFiring: a change waits for a firing under way, so none fires after the answer. */
    private readonly locks = new ScheduleLocks(),
  ) {}

  async create(body: unknown, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    const value = await this.rules.validate(ScheduleCreateRequestSchema, body, caller);
    const cron = this.rules.cron(value.cron_schedule);
    const now = this.clock.now();
    const enabled = value.enabled ?? true;
    const record: ScheduleRecord = {
      id: timeOrderedId(),
      name: value.name,
      cronSchedule: cron.expression,
      enabled,
      body: bodyOf(value),
      creator: caller,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      updatedBy: caller,
      lastRan: null,
      nextRun: this.rules.nextRun(cron, enabled, now),
      lastSpawnError: null,
    };
    await this.store.insert(record);
    return this.toItem(record);
  }

  async get(id: string, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    return this.toItem(await this.getOrThrow(id, caller));
  }

  /** A page of the caller's schedules (every one when shared), oldest first, narrowed in the query. */
  async list(caller: RunCreatorInfo, query: PageRequest = {}): Promise<ListSchedulesResponse> {
    const afterSeq = pageStart(query.cursor);
    const limit = query.limit ?? PAGE_LIMIT_DEFAULT;
    const page = await this.store.page({ creatorUid: this.shared ? undefined : (caller.uid ?? ''), afterSeq, limit });
    return { schedules: page.records.map((s) => this.toItem(s)), page_info: pageInfo(page.nextSeq) };
  }

  /** PUT: the whole definition replaced; the next tick recomputed from now. */
  async update(id: string, body: unknown, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    return this.locks.with(id, () => this.replaceDefinition(id, body, caller));
  }

  private async replaceDefinition(id: string, body: unknown, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    const existing = await this.getOrThrow(id, caller);
    const value = await this.rules.validate(ScheduleUpdateRequestSchema, body, caller);
    const cron = this.rules.cron(value.cron_schedule);
    const now = this.clock.now();
    const record: ScheduleRecord = {
      ...existing,
      name: value.name,
      cronSchedule: cron.expression,
      enabled: value.enabled,
      body: bodyOf(value),
      updatedAt: now.toISOString(),
      updatedBy: caller,
      nextRun: this.rules.nextRun(cron, value.enabled, now),
      lastSpawnError: existing.lastSpawnError,
    };
    if (!(await this.store.replace(record))) throw notFound(id);
    return this.toItem(record);
  }

  async delete(id: string, caller: RunCreatorInfo): Promise<void> {
    await this.locks.with(id, async () => {
      await this.getOrThrow(id, caller);
      if (!(await this.store.delete(id))) throw notFound(id);
    });
  }

  /** Stops firing; nothing is caught up for the paused time. */
  async pause(id: string, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    return this.setEnabled(id, false, caller);
  }

  /** Fires again from the next tick after now. */
  async resume(id: string, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    return this.setEnabled(id, true, caller);
  }

  private async setEnabled(id: string, enabled: boolean, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    return this.locks.with(id, () => this.writeEnabled(id, enabled, caller));
  }

  private async writeEnabled(id: string, enabled: boolean, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    const existing = await this.getOrThrow(id, caller);
    const now = this.clock.now();
    // A schedule the server's zone can no longer read is not resumed until it is updated.
    const nextRun = enabled ? this.rules.nextRun(this.rules.cron(existing.cronSchedule, '; update the schedule first'), true, now) : null;
    const record: ScheduleRecord = { ...existing, enabled, nextRun, updatedAt: now.toISOString(), updatedBy: caller };
    if (!(await this.store.replace(record))) throw notFound(id);
    return this.toItem(record);
  }

  private visible(schedule: ScheduleRecord, caller: RunCreatorInfo): boolean {
    return this.shared || schedule.creator.uid === caller.uid;
  }

  /** Another principal's schedule is answered as missing, as its runs are. */
  private async getOrThrow(id: string, caller: RunCreatorInfo): Promise<ScheduleRecord> {
    const schedule = await this.store.get(id);
    if (!schedule || !this.visible(schedule, caller)) throw notFound(id);
    return schedule;
  }

  private toItem(record: ScheduleRecord): ScheduledAgentItem {
    return toScheduleItem(record, this.environments, this.rules.timeZone);
  }
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`No schedule with id "${id}".`);
}
