import {
  ListWebhookDeliveriesResponseSchema,
  ListWebhooksResponseSchema,
  WebhookCreateRequestSchema,
  WebhookDeliverySchema,
  WebhookRotateRequestSchema,
  WebhookSubscriptionSchema,
  WebhookUpdateRequestSchema,
  WEBHOOK_EVENT_TYPES,
} from '@agent-runs/core/webhooks';
import { json, problem, ref, schema, type JsonSchema } from './openapi-parts.js';

const idParam = { name: 'webhookId', in: 'path', required: true, schema: { type: 'string' } };
const errors = { '401': problem('Missing or unknown API key'), '404': problem('No such webhook, or another principal’s') };
const EXTENSION = { 'x-agent-runs-extension': true };

/** The webhook subscriptions' paths: an extension of this server, as the event stream is. */
export function webhookPaths(): Record<string, unknown> {
  return {
    '/agent/webhooks': {
      post: {
        operationId: 'createWebhook',
        summary: 'Subscribe a URL to run events (an extension of this server); the answer carries the whsec_ secret, shown once',
        description:
          `Each event is POSTed as { type, timestamp, data } (data: the run as GET /agent/runs/{runId} answers it, or ids only when thin), ` +
          `signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>). ` +
          `Types: ${WEBHOOK_EVENT_TYPES.join(', ')}. The URL must be https and resolve to a public address.`,
        ...EXTENSION,
        requestBody: { required: true, content: json(ref('WebhookCreateRequest')) },
        responses: { '201': { description: 'Created, with its secret', content: json(ref('WebhookSubscription')) }, '400': problem('Invalid request, or a URL refused'), '401': errors['401'] },
      },
      get: {
        operationId: 'listWebhooks',
        summary: "The caller's webhook subscriptions, without their secrets",
        ...EXTENSION,
        responses: { '200': { description: 'The subscriptions', content: json(ref('ListWebhooksResponse')) }, '401': errors['401'] },
      },
    },
    '/agent/webhooks/{webhookId}': {
      get: { operationId: 'getWebhook', summary: 'One subscription', ...EXTENSION, parameters: [idParam], responses: { '200': { description: 'The subscription', content: json(ref('WebhookSubscription')) }, ...errors } },
      put: {
        operationId: 'updateWebhook',
        summary: 'Change a subscription: the fields given replace those stored (enabled: true again after a 410 disabled it)',
        ...EXTENSION,
        parameters: [idParam],
        requestBody: { required: true, content: json(ref('WebhookUpdateRequest')) },
        responses: { '200': { description: 'Changed', content: json(ref('WebhookSubscription')) }, '400': problem('Invalid request'), ...errors },
      },
      delete: { operationId: 'deleteWebhook', summary: 'Delete a subscription and its delivery log', ...EXTENSION, parameters: [idParam], responses: { '200': { description: 'Deleted', content: json({ type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } }) }, ...errors } },
    },
    '/agent/webhooks/{webhookId}/rotate-secret': {
      post: {
        operationId: 'rotateWebhookSecret',
        summary: 'A new secret, shown once; the old one keeps signing beside it for overlap_seconds (default a day)',
        ...EXTENSION,
        parameters: [idParam],
        requestBody: { required: false, content: json(ref('WebhookRotateRequest')) },
        responses: { '200': { description: 'Rotated, with the new secret', content: json(ref('WebhookSubscription')) }, '400': problem('Invalid request'), ...errors },
      },
    },
    '/agent/webhooks/{webhookId}/deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log, newest first: status, attempts, the last answer (bounded) and the next attempt',
        ...EXTENSION,
        parameters: [idParam, { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500 } }],
        responses: { '200': { description: 'The deliveries', content: json(ref('ListWebhookDeliveriesResponse')) }, ...errors },
      },
    },
    '/agent/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': {
      post: {
        operationId: 'redeliverWebhook',
        summary: 'Send a delivery again, with the same webhook-id',
        ...EXTENSION,
        parameters: [idParam, { name: 'deliveryId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '202': { description: 'Queued', content: json(ref('WebhookDelivery')) }, ...errors },
      },
    },
    '/agent/webhooks/{webhookId}/test': {
      post: {
        operationId: 'testWebhook',
        summary: 'Queue a webhook.test event to the subscription',
        ...EXTENSION,
        parameters: [idParam],
        responses: { '202': { description: 'Queued', content: json(ref('WebhookDelivery')) }, ...errors },
      },
    },
  };
}

export function webhookSchemas(): Record<string, JsonSchema> {
  return {
    WebhookCreateRequest: schema(WebhookCreateRequestSchema, 'input'),
    WebhookUpdateRequest: schema(WebhookUpdateRequestSchema, 'input'),
    WebhookRotateRequest: schema(WebhookRotateRequestSchema, 'input'),
    WebhookSubscription: schema(WebhookSubscriptionSchema, 'output'),
    ListWebhooksResponse: schema(ListWebhooksResponseSchema, 'output'),
    WebhookDelivery: schema(WebhookDeliverySchema, 'output'),
    ListWebhookDeliveriesResponse: schema(ListWebhookDeliveriesResponseSchema, 'output'),
  };
}
