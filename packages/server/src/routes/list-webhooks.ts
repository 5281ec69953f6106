import type { AppRoute } from './app-context.js';
import { rejectQuery } from './reject-query.js';

/** `GET /agent/webhooks`: the caller's subscriptions, oldest first, without their secrets. */
export const listWebhooksRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/webhooks',
  auth: true,
  async handle({ url, app, caller }) {
    rejectQuery(url.searchParams);
    return { webhooks: await app.webhooks.list(caller) };
  },
};
