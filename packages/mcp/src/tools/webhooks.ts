import { z } from 'zod';
import {
  ListWebhooksResponseSchema,
  WebhookCreateRequestSchema,
  WebhookSubscriptionSchema,
  type ListWebhooksResponse,
  type WebhookSubscription,
} from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { toolErrorResult } from './tool-error.js';

function webhookLine(hook: WebhookSubscription): string {
  const state = hook.enabled ? 'enabled' : `disabled${hook.disabled_reason ? ` (${hook.disabled_reason})` : ''}`;
  return `- ${hook.url} (id ${hook.id}, ${state}): ${hook.event_types.join(', ')}`;
}

export function summarizeWebhooks(result: ListWebhooksResponse): string {
  if (result.webhooks.length === 0) return 'No webhook subscriptions; create_webhook adds one.';
  return [`${result.webhooks.length} webhook subscription(s):`, ...result.webhooks.map(webhookLine)].join('\n');
}

export function registerListWebhooksTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'list_webhooks',
    {
      title: 'List webhook subscriptions',
      description:
        'Lists the webhook subscriptions this key owns: where each sends signed run and schedule events, which types, and ' +
        'whether it is enabled (a receiver answering 410 disables it). Secrets are never listed.',
      inputSchema: z.strictObject({}),
      outputSchema: ListWebhooksResponseSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async () => {
      try {
        const result = await ctx.client.webhooks.list();
        return { structuredContent: result, content: [{ type: 'text', text: summarizeWebhooks(result) }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'list_webhooks', doing: 'list webhook subscriptions' }, ctx.client);
      }
    },
  );
}

export function registerCreateWebhookTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'create_webhook',
    {
      title: 'Create a webhook subscription',
      description:
        'Subscribes an https URL to run and schedule events (all types when event_types is left out), signed per Standard ' +
        'Webhooks. The answer holds the signing secret (whsec_…) once: hand it to whoever runs the receiver, it is not shown again.',
      inputSchema: WebhookCreateRequestSchema,
      outputSchema: WebhookSubscriptionSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args) => {
      try {
        const hook = await ctx.client.webhooks.create(args);
        const text = `Created ${webhookLine(hook).slice(2)}\nSigning secret (shown once): ${hook.secret ?? '(not returned)'}`;
        return { structuredContent: hook, content: [{ type: 'text', text }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'create_webhook', doing: 'create the webhook subscription' }, ctx.client);
      }
    },
  );
}
