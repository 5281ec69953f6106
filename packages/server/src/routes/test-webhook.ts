import { json } from '../http/reply.js';
import { json as jsonContent, ref } from '../openapi/openapi-parts.js';
import { webhookProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/webhooks/{webhookId}/test`: queues a `webhook.test` event. */
export const testWebhookRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/webhooks/:webhookId/test',
  auth: true,
  openapi: {
    operationId: 'testWebhook',
    summary: 'Queue a webhook.test event to the subscription',
    'x-agent-runs-extension': true,
    responses: { '202': { description: 'Queued', content: jsonContent(ref('WebhookDelivery')) }, ...webhookProblems },
  },
  async handle({ params, app, caller }) {
    return json(await app.webhooks.sendTest(params.webhookId!, caller), 202);
  },
};
