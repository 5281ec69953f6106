import { json } from '../http/reply.js';
import type { Route } from '../http/route.js';

/** `POST /agent/webhooks/{webhookId}/test`: queues a `webhook.test` event. */
export const testWebhookRoute: Route = {
  method: 'POST',
  path: '/api/v1/agent/webhooks/:webhookId/test',
  auth: true,
  async handle({ params, app, caller }) {
    return json(await app.webhooks.sendTest(params.webhookId!, caller), 202);
  },
};
