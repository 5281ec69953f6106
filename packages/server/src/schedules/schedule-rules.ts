import type { RunCreatorInfo, ScheduleCreateRequestSchema, ScheduleUpdateRequestSchema } from '@agent-runs/core/contract';
import type { z } from 'zod';
import { SCHEDULE_FIELDS, type RunSetupResolver } from '../catalog/resolve-run-setup.js';
import { invalidField, invalidInput } from '../domain/invalid-request-input.js';
import { RunBudgets } from '../runs/run-budgets.js';
import type { ScheduleBody } from '../store/schedules/schedule-store.js';
import { parseCron, type CronSchedule } from '@agent-runs/core/cron';

export type ScheduleCreate = z.output<typeof ScheduleCreateRequestSchema>;
export type ScheduleUpdate = z.output<typeof ScheduleUpdateRequestSchema>;

/** What a schedule may be: a body its schema accepts, a cron expression of the server's zone, sources this server has. */
export class ScheduleRules {
  constructor(
    private readonly setup: RunSetupResolver,
    readonly timeZone: string,
    /** The configuration file's budget maxima, which each firing's run is held to. */
    private readonly budgets: RunBudgets = new RunBudgets(undefined),
  ) {}

  /** The body, once valid; an unknown environment, skill or named agent is named now, not at the first tick. */
  async validate<S extends z.ZodType>(schema: S, body: unknown, caller: RunCreatorInfo): Promise<z.output<S>> {
    if (body === undefined) throw invalidField('body', 'a JSON object with name, cron_schedule and prompt is required.');
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    const value = parsed.data as ScheduleCreate;
    this.cron(value.cron_schedule);
    this.setup.checkWorkerHost(value.agent_config?.worker_host, 'agent_config.worker_host');
    const { config } = await this.setup.resolve({ config: value.agent_config, identityUid: value.agent_uid, principal: caller.uid }, SCHEDULE_FIELDS);
    // A cap above the principal's maximum is named now, not at each firing.
    this.budgets.apply(config, caller.uid);
    if (!value.prompt?.trim() && !config.base_prompt?.trim()) {
      // Skills this server does not have would leave each run nothing to do.
      throw invalidField('prompt', 'is required here: none of agent_config.skills names a skill this server has, so there is no base prompt to run.');
    }
    return parsed.data;
  }

  /** The parsed expression; a 400 naming `cron_schedule` when it cannot be read in the server's zone. */
  cron(expression: string, hint = ''): CronSchedule {
    const check = parseCron(expression, this.timeZone);
    if (!check.ok) throw invalidField('cron_schedule', check.reason, `cron_schedule: ${check.reason}${hint}.`);
    return check.cron;
  }

  /** The next tick after `now` as stored, or null when disabled or never again. */
  nextRun(cron: CronSchedule, enabled: boolean, now: Date): string | null {
    return enabled ? (cron.nextAfter(now)?.toISOString() ?? null) : null;
  }
}

/** The members of a valid create or update that are stored with the schedule. */
export function bodyOf(value: ScheduleCreate | ScheduleUpdate): ScheduleBody {
  const body: ScheduleBody = {};
  if (value.prompt !== undefined) body.prompt = value.prompt;
  if (value.agent_config !== undefined) body.agent_config = value.agent_config;
  if (value.agent_uid !== undefined) body.agent_uid = value.agent_uid;
  if (value.metadata !== undefined) body.metadata = value.metadata;
  if (value.mode !== undefined) body.mode = value.mode;
  if ('team' in value && value.team !== undefined) body.team = value.team;
  return body;
}
