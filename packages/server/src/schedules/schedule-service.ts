import {
  formatIssues,
  ScheduleCreateRequestSchema,
  ScheduleUpdateRequestSchema,
  type RunCreatorInfo,
  type ScheduledAgentItem,
} from '@agent-runs/core';
import type { z } from 'zod';
import { ApiProblem } from '../http/api-problem.js';
import type { RunService } from '../runs/run-service.js';
import type { EnvironmentRegistry } from '../catalog/environment-registry.js';
import { SCHEDULE_FIELDS, type RunSetupResolver } from '../catalog/resolve-run-setup.js';
import type { ScheduleBody, ScheduleRecord, ScheduleStore } from '../store/schedule-store.js';
import { timeOrderedId } from '../store/time-ordered-id.js';
import { parseCron, type CronSchedule } from './cron.js';
import type { ServerClock } from '../domain/server-clock.js';

/**
 * Schedules: their rules (validation, pause, resume) and their firing. Each tick fires at
 * most once: a firing first claims its (schedule, tick) record, and the run it creates
 * carries an idempotency key made of the two, so a firing interrupted by a restart and
 * taken up again cannot make a second run. Ticks missed while the server was down or the
 * schedule could not fire are caught up with one run, for the latest of them.
 */
export class ScheduleService {
  constructor(
    private readonly store: ScheduleStore,
    private readonly runs: RunService,
    private readonly setup: RunSetupResolver,
    private readonly environments: EnvironmentRegistry,
    private readonly timeZone: string,
    private readonly clock: ServerClock,
    private readonly log: (line: string) => void,
    /** Every key sees every schedule; otherwise a key sees those its principal created. */
    private readonly shared = false,
  ) {}

  async create(body: unknown, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    const value = await this.validate(ScheduleCreateRequestSchema, body, caller);
    const cron = this.cron(value.cron_schedule);
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
      nextRun: enabled ? (cron.nextAfter(now)?.toISOString() ?? null) : null,
      lastSpawnError: null,
    };
    await this.store.insert(record);
    return this.toItem(record);
  }

  async get(id: string, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    return this.toItem(await this.getOrThrow(id, caller));
  }

  async list(caller: RunCreatorInfo): Promise<ScheduledAgentItem[]> {
    return (await this.store.list()).filter((s) => this.visible(s, caller)).map((s) => this.toItem(s));
  }

  /** PUT: the whole definition replaced; the next tick recomputed from now. */
  async update(id: string, body: unknown, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    const existing = await this.getOrThrow(id, caller);
    const value = await this.validate(ScheduleUpdateRequestSchema, body, caller);
    const cron = this.cron(value.cron_schedule);
    const now = this.clock.now();
    const record: ScheduleRecord = {
      ...existing,
      name: value.name,
      cronSchedule: cron.expression,
      enabled: value.enabled,
      body: bodyOf(value),
      updatedAt: now.toISOString(),
      updatedBy: caller,
      nextRun: value.enabled ? (cron.nextAfter(now)?.toISOString() ?? null) : null,
      lastSpawnError: existing.lastSpawnError,
    };
    if (!(await this.store.replace(record))) throw notFound(id);
    return this.toItem(record);
  }

  async delete(id: string, caller: RunCreatorInfo): Promise<void> {
    await this.getOrThrow(id, caller);
    if (!(await this.store.delete(id))) throw notFound(id);
  }

  /** Stops firing; nothing is caught up for the paused time. */
  async pause(id: string, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    return this.setEnabled(id, false, caller);
  }

  /** Fires again from the next tick after now. */
  async resume(id: string, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    return this.setEnabled(id, true, caller);
  }

  /** Fires every schedule whose tick has come; one run per schedule, however many ticks were missed. */
  async fireDue(): Promise<void> {
    const now = this.clock.now();
    for (const schedule of await this.store.due(now.toISOString())) {
      try {
        await this.fire(schedule, now);
      } catch (error) {
        this.log(`Schedule ${schedule.id} could not fire: ${(error as Error).message}`);
      }
    }
  }

  private async fire(schedule: ScheduleRecord, now: Date): Promise<void> {
    const nowIso = now.toISOString();
    const check = parseCron(schedule.cronSchedule, this.timeZone);
    if (!check.ok) {
      // The server's time zone changed to one that cannot read it: say so and stop.
      await this.store.finishFiring(schedule.id, schedule.nextRun!, { runId: null, error: `cron_schedule: ${check.reason}` }, {
        lastRan: schedule.lastRan,
        nextRun: null,
      });
      return;
    }
    const tick = (check.cron.latestAtOrBefore(now) ?? new Date(schedule.nextRun!)).toISOString();
    const nextRun = check.cron.nextAfter(now)?.toISOString() ?? null;
    const claim = await this.store.claimFiring(schedule.id, tick, nowIso);
    let result = claim.earlier;
    if (!result) {
      try {
        const created = await this.runs.create({
          body: runRequestOf(schedule.body),
          creator: schedule.creator,
          source: 'SCHEDULED_AGENT',
          idempotencyKey: `schedule:${schedule.id}:${tick}`,
          schedule: { schedule_id: schedule.id, schedule_name: schedule.name, cron_schedule: schedule.cronSchedule },
        });
        result = { runId: created.run_id, error: null };
      } catch (error) {
        const message = error instanceof ApiProblem ? error.detail : (error as Error).message;
        // A conflict: this tick made its run before the schedule was edited; nothing more to do.
        result = error instanceof ApiProblem && error.code === 'conflict' ? { runId: null, error: null } : { runId: null, error: message };
      }
    }
    await this.store.finishFiring(schedule.id, tick, result, {
      lastRan: result.runId ? nowIso : schedule.lastRan,
      nextRun,
    });
    if (result.error) this.log(`Schedule ${schedule.id} could not start a run: ${result.error}`);
  }

  private async setEnabled(id: string, enabled: boolean, caller: RunCreatorInfo): Promise<ScheduledAgentItem> {
    const existing = await this.getOrThrow(id, caller);
    const now = this.clock.now();
    let nextRun: string | null = null;
    if (enabled) {
      const check = parseCron(existing.cronSchedule, this.timeZone);
      if (!check.ok) throw new ApiProblem('invalid_request', `cron_schedule: ${check.reason}; update the schedule first.`);
      nextRun = check.cron.nextAfter(now)?.toISOString() ?? null;
    }
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

  private async validate<S extends z.ZodType>(schema: S, body: unknown, caller: RunCreatorInfo): Promise<z.output<S>> {
    if (body === undefined) throw new ApiProblem('invalid_request', 'body: a JSON object with name, cron_schedule and prompt is required.');
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new ApiProblem('invalid_request', formatIssues(parsed.error, 'body').join('; '));
    const value = parsed.data as z.output<typeof ScheduleCreateRequestSchema>;
    this.cron(value.cron_schedule);
    // An unknown environment, skill or named agent is named now, not at the first tick.
    await this.setup.resolve({ config: value.agent_config, identityUid: value.agent_uid, principal: caller.uid }, SCHEDULE_FIELDS);
    return parsed.data;
  }

  private cron(expression: string): CronSchedule {
    const check = parseCron(expression, this.timeZone);
    if (!check.ok) throw new ApiProblem('invalid_request', `cron_schedule: ${check.reason}.`);
    return check.cron;
  }

  private toItem(s: ScheduleRecord): ScheduledAgentItem {
    const envId = s.body.agent_config?.environment_id;
    const env = envId ? this.environments.get(envId) : undefined;
    return {
      id: s.id,
      name: s.name,
      cron_schedule: s.cronSchedule,
      enabled: s.enabled,
      prompt: s.body.prompt ?? '',
      created_at: s.createdAt,
      updated_at: s.updatedAt,
      ...(s.body.agent_config ? { agent_config: s.body.agent_config } : {}),
      ...(s.body.agent_uid ? { agent_uid: s.body.agent_uid } : {}),
      ...(s.body.metadata ? { metadata: s.body.metadata } : {}),
      ...(env ? { environment: this.environments.toCloudEnvironment(env, undefined).config } : {}),
      history: { last_ran: s.lastRan, next_run: s.nextRun },
      last_spawn_error: s.lastSpawnError,
      created_by: s.creator,
      updated_by: s.updatedBy,
      scope: { type: 'User', ...(s.creator.uid ? { uid: s.creator.uid } : {}) },
      // Extension: the zone its cron expression is read in.
      time_zone: this.timeZone,
    };
  }
}

function notFound(id: string): ApiProblem {
  return new ApiProblem('resource_not_found', `No schedule with id "${id}".`);
}

function bodyOf(value: z.output<typeof ScheduleCreateRequestSchema> | z.output<typeof ScheduleUpdateRequestSchema>): ScheduleBody {
  const body: ScheduleBody = {};
  if (value.prompt !== undefined) body.prompt = value.prompt;
  if (value.agent_config !== undefined) body.agent_config = value.agent_config;
  if (value.agent_uid !== undefined) body.agent_uid = value.agent_uid;
  if (value.metadata !== undefined) body.metadata = value.metadata;
  if (value.mode !== undefined) body.mode = value.mode;
  if ('team' in value && value.team !== undefined) body.team = value.team;
  return body;
}

/** The create body each firing sends through the same path as `POST /agent/runs`. */
function runRequestOf(body: ScheduleBody): Record<string, unknown> {
  return {
    ...(body.prompt !== undefined ? { prompt: body.prompt } : {}),
    ...(body.agent_config ? { config: body.agent_config } : {}),
    ...(body.agent_uid ? { agent_identity_uid: body.agent_uid } : {}),
    ...(body.metadata ? { metadata: body.metadata } : {}),
    ...(body.mode ? { mode: body.mode } : {}),
    ...(body.team !== undefined ? { team: body.team } : {}),
  };
}
