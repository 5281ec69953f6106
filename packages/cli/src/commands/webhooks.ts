import { KNOWN_RUN_STATES, WEBHOOK_EVENT_TYPES, type KnownRunState, type WebhookEventType, type WebhookSubscription } from '@agent-runs/core';
import type { Command, CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { ParsedFlags } from '../flags/parsed-flags.js';
import { writeJson } from '../render/json-output.js';
import { UsageError } from '../usage-error.js';
import { listenAndForward } from './webhooks-listen.js';
import { renderDeliveryTable, renderWebhookDetails, renderWebhookTable } from './webhooks-render.js';

const SUBCOMMANDS = ['list', 'create', 'get', 'update', 'delete', 'rotate', 'deliveries', 'redeliver', 'test', 'listen'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function subcommand(flags: ParsedFlags): { sub: Subcommand; args: string[] } {
  const [sub, ...args] = flags.positionals;
  if (!sub || !(SUBCOMMANDS as readonly string[]).includes(sub)) {
    throw new UsageError(`"webhooks" needs one of ${SUBCOMMANDS.join(', ')}${sub ? `, got "${sub}"` : ''}.`, 'webhooks');
  }
  const wanted = sub === 'redeliver' ? 2 : ['list', 'create', 'listen'].includes(sub) ? 0 : 1;
  if (args.length !== wanted || args.some((a) => a.trim() === '')) {
    const what = wanted === 2 ? '<webhook-id> <delivery-id>' : wanted === 1 ? '<webhook-id>' : 'no argument';
    throw new UsageError(`"webhooks ${sub}" takes ${what} (see webhooks list and webhooks deliveries).`, 'webhooks');
  }
  return { sub: sub as Subcommand, args: args.map((a) => a.trim()) };
}

/** --event, repeated or comma-separated, each checked against the known types. */
function eventsFlag(flags: ParsedFlags): WebhookEventType[] | undefined {
  const given = flags.list('event').flatMap((e) => e.split(',')).map((e) => e.trim()).filter(Boolean);
  if (given.length === 0) return undefined;
  const unknown = given.filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length) throw new UsageError(`--event ${unknown.join(', ')}: not an event type; use one of ${WEBHOOK_EVENT_TYPES.join(', ')}.`, 'webhooks');
  return given as WebhookEventType[];
}

/** --state, repeated or comma-separated, each checked against the run states (a filter on another never matches). */
function statesFlag(flags: ParsedFlags): KnownRunState[] {
  const given = flags.list('state');
  const states = given.flatMap((s) => s.split(',')).map((s) => s.trim().toUpperCase()).filter(Boolean);
  const unknown = states.filter((s) => !(KNOWN_RUN_STATES as readonly string[]).includes(s));
  if (unknown.length || (given.length > 0 && states.length === 0)) {
    throw new UsageError(`--state ${unknown.join(', ') || '""'}: not a run state; use one of ${KNOWN_RUN_STATES.join(', ')}.`, 'webhooks');
  }
  return states as KnownRunState[];
}

function filterFlags(flags: ParsedFlags) {
  const states = statesFlag(flags);
  const environment = flags.nonEmpty('environment');
  const schedule = flags.nonEmpty('schedule');
  if (!states.length && environment === undefined && schedule === undefined) return undefined;
  return { ...(states.length ? { states } : {}), ...(environment ? { environment_id: environment } : {}), ...(schedule ? { schedule_id: schedule } : {}) };
}

function show(ctx: CommandContext, flags: ParsedFlags, hook: WebhookSubscription, headline: string): number {
  if (flags.bool('json')) writeJson(ctx.io.stdout, hook);
  else ctx.io.stdout.write(`${headline ? `${headline}\n` : ''}${renderWebhookDetails(hook)}`);
  return EXIT.OK;
}

export const webhooksCommand: Command = {
  name: 'webhooks',
  summary: 'Signed pushes when runs change: subscriptions, their deliveries, and a local forwarder',
  usage: `${SUBCOMMANDS.join('|')} [<webhook-id>] [<delivery-id>] [flags]`,
  description:
    'A webhook POSTs each event ({ type, timestamp, data }) to its URL, signed per Standard Webhooks\n' +
    '(webhook-id, webhook-timestamp, webhook-signature); verify it with verifyWebhook from @agent-runs/core.\n' +
    'The secret (whsec_…) is printed once, by create and rotate. listen forwards deliveries to a local app\n' +
    '(the server must run with --allow-private-webhooks).',
  positionals: true,
  usesApi: true,
  flags: {
    url: { type: 'string', value: '<https-url>', description: 'Where events go (create: required)' },
    event: { type: 'string', multiple: true, value: '<type>', description: `An event type wanted; repeat for several (default all: ${WEBHOOK_EVENT_TYPES.join(', ')})` },
    state: { type: 'string', multiple: true, value: '<state>', description: 'Only events whose run is now in this state; repeat for several' },
    environment: { type: 'string', value: '<id>', description: 'Only runs of this environment' },
    schedule: { type: 'string', value: '<id>', description: 'Only runs and firings of this schedule' },
    thin: { type: 'boolean', description: 'Send ids only, not the whole run' },
    disable: { type: 'boolean', description: 'create/update: disabled (no deliveries)' },
    enable: { type: 'boolean', description: 'update: enabled again (after a 410 disabled it)' },
    description: { type: 'string', value: '<text>', description: 'A note for you' },
    overlap: { type: 'string', value: '<seconds>', description: 'rotate: how long the old secret still signs (default 86400)' },
    limit: { type: 'string', value: '<n>', description: 'deliveries: how many, newest first (default 50)' },
    'forward-to': { type: 'string', value: '<url>', description: 'listen: your app’s address, e.g. http://localhost:3000/webhooks' },
    port: { type: 'string', value: '<n>', description: 'listen: the local port to receive on (default any free one)' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  examples: [
    '$0 webhooks create --url https://example.com/hooks --event run.succeeded --event run.failed',
    '$0 webhooks list',
    '$0 webhooks deliveries wh_0193…',
    '$0 webhooks redeliver wh_0193… msg_…',
    '$0 webhooks rotate wh_0193… --overlap 3600',
    '$0 webhooks listen --forward-to http://localhost:3000/webhooks',
  ],
  async run(flags, ctx) {
    const { sub, args } = subcommand(flags);
    const [id, deliveryId] = args;
    const client = ctx.client();
    switch (sub) {
      case 'list': {
        const { webhooks } = await client.webhooks.list();
        if (flags.bool('json')) writeJson(ctx.io.stdout, { webhooks });
        else ctx.io.stdout.write(renderWebhookTable(webhooks));
        return EXIT.OK;
      }
      case 'create': {
        const url = flags.nonEmpty('url');
        if (url === undefined) throw new UsageError('"webhooks create" needs --url, e.g. --url https://example.com/hooks.', 'webhooks');
        const events = eventsFlag(flags);
        const filter = filterFlags(flags);
        const description = flags.nonEmpty('description');
        const created = await client.webhooks.create({
          url,
          ...(events ? { event_types: events } : {}),
          ...(filter ? { filter } : {}),
          ...(flags.bool('thin') ? { thin: true } : {}),
          ...(flags.bool('disable') ? { enabled: false } : {}),
          ...(description ? { description } : {}),
        });
        return show(ctx, flags, created, `Created webhook ${created.id}.`);
      }
      case 'get':
        return show(ctx, flags, await client.webhooks.get(id!), '');
      case 'update': {
        if (flags.bool('enable') && flags.bool('disable')) throw new UsageError('Give --enable or --disable, not both.', 'webhooks');
        const events = eventsFlag(flags);
        const filter = filterFlags(flags);
        const url = flags.nonEmpty('url');
        const description = flags.nonEmpty('description');
        const updated = await client.webhooks.update(id!, {
          ...(url ? { url } : {}),
          ...(events ? { event_types: events } : {}),
          ...(filter ? { filter } : {}),
          ...(flags.has('thin') ? { thin: flags.bool('thin') } : {}),
          ...(flags.bool('enable') ? { enabled: true } : flags.bool('disable') ? { enabled: false } : {}),
          ...(description ? { description } : {}),
        });
        return show(ctx, flags, updated, `Updated webhook ${updated.id}.`);
      }
      case 'delete':
        await client.webhooks.delete(id!);
        if (flags.bool('json')) writeJson(ctx.io.stdout, { webhook_id: id, deleted: true });
        else ctx.io.stdout.write(`Deleted webhook ${id}.\n`);
        return EXIT.OK;
      case 'rotate': {
        const overlap = flags.string('overlap');
        if (overlap !== undefined && !/^\d{1,6}$/.test(overlap)) throw new UsageError('--overlap must be a number of seconds from 0 to 604800.', 'webhooks');
        const rotated = await client.webhooks.rotateSecret(id!, overlap === undefined ? {} : { overlap_seconds: Number(overlap) });
        return show(ctx, flags, rotated, `Rotated the secret of webhook ${rotated.id}.`);
      }
      case 'deliveries': {
        const limit = flags.string('limit');
        if (limit !== undefined && !/^\d{1,3}$/.test(limit)) throw new UsageError('--limit must be a number from 1 to 500.', 'webhooks');
        const { deliveries } = await client.webhooks.deliveries(id!, limit === undefined ? {} : { limit: Number(limit) });
        if (flags.bool('json')) writeJson(ctx.io.stdout, { deliveries });
        else ctx.io.stdout.write(renderDeliveryTable(deliveries));
        return EXIT.OK;
      }
      case 'redeliver': {
        const delivery = await client.webhooks.redeliver(id!, deliveryId!);
        if (flags.bool('json')) writeJson(ctx.io.stdout, delivery);
        else ctx.io.stdout.write(`Delivery ${deliveryId} will be sent again.\n`);
        return EXIT.OK;
      }
      case 'test': {
        const delivery = await client.webhooks.test(id!);
        if (flags.bool('json')) writeJson(ctx.io.stdout, delivery);
        else ctx.io.stdout.write(`Queued test event ${delivery.id}; see webhooks deliveries ${id}.\n`);
        return EXIT.OK;
      }
      case 'listen': {
        const port = flags.string('port');
        if (port !== undefined && !/^\d{1,5}$/.test(port)) throw new UsageError('--port must be a port number.', 'webhooks');
        return listenAndForward(ctx, flags.string('forward-to'), eventsFlag(flags), port === undefined ? 0 : Number(port));
      }
    }
  },
};
