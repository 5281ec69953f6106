import { json } from '../http/reply.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver`: sent again, same `webhook-id`. */
export const redeliverWebhookRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
  auth: true,
  async handle({ params, app, caller }) {
    return json(await app.webhooks.redeliver(params.webhookId!, params.deliveryId!, caller), 202);
  },
};
