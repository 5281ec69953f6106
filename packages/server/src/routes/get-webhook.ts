import { ok } from '../openapi/openapi-parts.js';
import { webhookProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/webhooks/{webhookId}`. */
export const getWebhookRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/webhooks/:webhookId',
  auth: true,
  openapi: {
    operationId: 'getWebhook',
    summary: 'One subscription',
    'x-agent-runs-extension': true,
    responses: { ...ok('The subscription', 'WebhookSubscription'), ...webhookProblems },
  },
  handle: ({ params, app, caller }) => app.webhooks.get(params.webhookId!, caller),
};
