import { ok } from '../openapi/openapi-parts.js';
import { unauthorized } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';
import { rejectQuery } from './reject-query.js';

/** `GET /agent/webhooks`: the caller's subscriptions, oldest first, without their secrets. */
export const listWebhooksRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/webhooks',
  auth: true,
  openapi: {
    operationId: 'listWebhooks',
    summary: "The caller's webhook subscriptions, without their secrets",
    'x-agent-runs-extension': true,
    responses: { ...ok('The subscriptions', 'ListWebhooksResponse'), ...unauthorized },
  },
  async handle({ url, app, caller }) {
    rejectQuery(url.searchParams);
    return { webhooks: await app.webhooks.list(caller) };
  },
};
