import type { AppRoute } from './app-context.js';

/** `GET /agent/webhooks/{webhookId}`. */
export const getWebhookRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/webhooks/:webhookId',
  auth: true,
  handle: ({ params, app, caller }) => app.webhooks.get(params.webhookId!, caller),
};
