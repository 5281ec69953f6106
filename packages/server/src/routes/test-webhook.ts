import { json } from '../http/reply.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/webhooks/{webhookId}/test`: queues a `webhook.test` event. */
export const testWebhookRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/webhooks/:webhookId/test',
  auth: true,
  async handle({ params, app, caller }) {
    return json(await app.webhooks.sendTest(params.webhookId!, caller), 202);
  },
};
