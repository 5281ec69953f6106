import type { Route } from '../http/route.js';

/** `GET /agent/webhooks/{webhookId}`. */
export const getWebhookRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/webhooks/:webhookId',
  auth: true,
  handle: ({ params, app, caller }) => app.webhooks.get(params.webhookId!, caller),
};
