import { json } from '../http/reply.js';
import { json as jsonContent, ref } from '../openapi/openapi-parts.js';
import { webhookProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver`: sent again, same `webhook-id`. */
export const redeliverWebhookRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
  auth: true,
  openapi: {
    operationId: 'redeliverWebhook',
    summary: 'Send a delivery again, with the same webhook-id',
    'x-agent-runs-extension': true,
    responses: { '202': { description: 'Queued', content: jsonContent(ref('WebhookDelivery')) }, ...webhookProblems },
  },
  async handle({ params, app, caller }) {
    return json(await app.webhooks.redeliver(params.webhookId!, params.deliveryId!, caller), 202);
  },
};
