import { visibleText, type AmbientAgentConfig, type ScheduleCreateRequest, type ScheduledAgentItem } from '@agent-runs/core';
import type { Command, CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { ParsedFlags } from '../flags/parsed-flags.js';
import { cronFlag, nextFirings } from '../input/cron-flag.js';
import { resolveEnvironmentAndAgentFlags, withEnvironment } from '../input/environment-and-agent-flags.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { renderScheduleDetails, renderScheduleTable } from '../render/schedule-details.js';
import { UsageError } from '../usage-error.js';

const SUBCOMMANDS = ['list', 'create', 'get', 'update', 'pause', 'resume', 'delete'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function subcommand(flags: ParsedFlags): { sub: Subcommand; id?: string } {
  const [sub, id, ...extra] = flags.positionals;
  if (!sub || !(SUBCOMMANDS as readonly string[]).includes(sub)) {
    throw new UsageError(`"schedules" needs one of ${SUBCOMMANDS.join(', ')}${sub ? `, got "${sub}"` : ''}.`, 'schedules');
  }
  const needsId = !['list', 'create'].includes(sub);
  if (needsId && (id === undefined || id.trim() === '')) {
    throw new UsageError(`Missing <schedule-id>: "schedules ${sub}" needs the id of a schedule (see schedules list).`, 'schedules');
  }
  if (extra.length || (!needsId && id !== undefined)) {
    throw new UsageError(`"schedules ${sub}" takes ${needsId ? 'one <schedule-id>' : 'no argument'}; got ${flags.positionals.length - 1}.`, 'schedules');
  }
  return { sub: sub as Subcommand, ...(needsId ? { id: id!.trim() } : {}) };
}

/** The run settings the flags give, with the environment and named agent looked up by name or id. */
async function runSettings(flags: ParsedFlags, ctx: CommandContext, base: AmbientAgentConfig | undefined) {
  const resolved = await resolveEnvironmentAndAgentFlags(flags, ctx.client(), ctx.invocation);
  let config = withEnvironment(base, resolved.environmentId);
  const skill = flags.nonEmpty('skill');
  const model = flags.nonEmpty('model');
  if (skill !== undefined) config = { ...config, skill_spec: skill };
  if (model !== undefined) config = { ...config, model_id: model };
  return { config, agentUid: resolved.agentUid };
}

function show(ctx: CommandContext, flags: ParsedFlags, schedule: ScheduledAgentItem, headline: string, nextRuns: string[] = []): number {
  if (flags.bool('json')) writeJson(ctx.io.stdout, schedule);
  else ctx.io.stdout.write(`${headline ? `${visibleText(headline)}\n` : ''}${renderScheduleDetails(schedule, nextRuns)}`);
  return EXIT.OK;
}

export const schedulesCommand: Command = {
  name: 'schedules',
  summary: 'List, create, change, pause, resume and delete schedules (runs on a cron)',
  usage: `${SUBCOMMANDS.join('|')} [<schedule-id>] [flags]`,
  description:
    'Schedules start a run at each tick of a 5-field cron expression (minute hour day-of-month month day-of-week),\n' +
    'in UTC unless the server says otherwise. The expression is checked before anything is sent, and create shows\n' +
    'the next three firing times. update changes only what its flags give.',
  positionals: true,
  usesApi: true,
  flags: {
    name: { type: 'string', value: '<name>', description: 'The schedule’s name (create: required)' },
    cron: { type: 'string', value: '<expression>', description: 'When it fires, e.g. "0 9 * * 1-5" (create: required)' },
    prompt: { type: 'string', value: '<text>', description: 'The instruction of each run (create: required unless --skill)' },
    environment: { type: 'string', value: '<name-or-id>', description: 'Environment of each run' },
    skill: { type: 'string', value: '<spec>', description: 'Skill each run starts from' },
    agent: { type: 'string', value: '<name-or-id>', description: 'Named agent whose defaults each run takes' },
    model: { type: 'string', value: '<id>', description: 'Model of each run' },
    paused: { type: 'boolean', description: 'create: create it paused' },
    json: { type: 'boolean', description: 'Print the schedule(s) as JSON' },
  },
  examples: [
    '$0 schedules create --name "weekday triage" --cron "0 9 * * 1-5" --prompt "Triage new issues" --environment web',
    '$0 schedules list',
    '$0 schedules update 0193… --cron "30 8 * * 1-5"',
    '$0 schedules pause 0193…',
  ],
  async run(flags, ctx) {
    const { sub, id } = subcommand(flags);
    const client = ctx.client();
    const paint = paintFor(ctx.io.stdout, ctx.io.env);
    switch (sub) {
      case 'list': {
        const schedules: ScheduledAgentItem[] = [];
        for await (const schedule of client.schedules.list({ limit: 500 })) schedules.push(schedule);
        if (flags.bool('json')) writeJson(ctx.io.stdout, { schedules });
        else ctx.io.stdout.write(renderScheduleTable(schedules, paint));
        return EXIT.OK;
      }
      case 'create': {
        const name = flags.nonEmpty('name');
        const cron = await cronFlag(flags.string('cron'), 'schedules');
        const prompt = flags.nonEmpty('prompt');
        if (name === undefined) throw new UsageError('"schedules create" needs --name.', 'schedules');
        if (cron === undefined) throw new UsageError('"schedules create" needs --cron, e.g. --cron "0 9 * * 1-5".', 'schedules');
        if (prompt === undefined && !flags.has('skill')) throw new UsageError('"schedules create" needs --prompt (or --skill).', 'schedules');
        const { config, agentUid } = await runSettings(flags, ctx, undefined);
        const body: ScheduleCreateRequest = {
          name,
          cron_schedule: cron,
          prompt,
          agent_config: config,
          agent_uid: agentUid,
          enabled: flags.bool('paused') ? false : undefined,
        };
        const created = await client.schedules.create(body);
        const zone = typeof created.time_zone === 'string' ? created.time_zone : undefined;
        return show(ctx, flags, created, `Created schedule ${created.id}.`, await nextFirings(created.cron_schedule, zone));
      }
      case 'get':
        return show(ctx, flags, await client.schedules.get(id!), '');
      case 'update': {
        if (flags.has('paused')) throw new UsageError('"schedules update" does not take --paused; use schedules pause or resume.', 'schedules');
        const cron = await cronFlag(flags.string('cron'), 'schedules');
        const current = await client.schedules.get(id!);
        const { config, agentUid } = await runSettings(flags, ctx, current.agent_config);
        const prompt = flags.nonEmpty('prompt') ?? current.prompt;
        const updated = await client.schedules.update(id!, {
          name: flags.nonEmpty('name') ?? current.name,
          cron_schedule: cron ?? current.cron_schedule,
          enabled: current.enabled,
          prompt: prompt || undefined,
          agent_config: config,
          agent_uid: agentUid ?? (current.agent_uid || undefined),
          metadata: current.metadata,
        });
        return show(ctx, flags, updated, `Updated schedule ${updated.id}.`);
      }
      case 'pause':
        return show(ctx, flags, await client.schedules.pause(id!), `Paused schedule ${id}.`);
      case 'resume':
        return show(ctx, flags, await client.schedules.resume(id!), `Resumed schedule ${id}.`);
      case 'delete':
        await client.schedules.delete(id!);
        if (flags.bool('json')) writeJson(ctx.io.stdout, { schedule_id: id, deleted: true });
        else ctx.io.stdout.write(`Deleted schedule ${id}.\n`);
        return EXIT.OK;
    }
  },
};
