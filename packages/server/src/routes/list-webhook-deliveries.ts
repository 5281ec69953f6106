import { invalidField } from '../domain/invalid-request-input.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/webhooks/{webhookId}/deliveries?limit=`: newest first, with each one's status, attempts and last answer. */
export const listWebhookDeliveriesRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/webhooks/:webhookId/deliveries',
  auth: true,
  async handle({ url, params, app, caller }) {
    for (const key of url.searchParams.keys()) if (key !== 'limit') throw invalidField(key, 'is not a parameter here; the only one is limit.');
    const raw = url.searchParams.get('limit');
    const limit = raw === null ? 50 : Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw invalidField('limit', 'must be a whole number from 1 to 500.');
    return { deliveries: await app.webhooks.deliveries(params.webhookId!, caller, limit) };
  },
};
