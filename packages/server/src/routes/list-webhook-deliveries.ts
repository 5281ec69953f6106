import { invalidField } from '../domain/invalid-request-input.js';
import { ok } from '../openapi/openapi-parts.js';
import { webhookProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/webhooks/{webhookId}/deliveries?limit=`: newest first, with each one's status, attempts and last answer. */
export const listWebhookDeliveriesRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/webhooks/:webhookId/deliveries',
  auth: true,
  openapi: {
    operationId: 'listWebhookDeliveries',
    summary: 'The delivery log, newest first: status, attempts, the last answer (bounded) and the next attempt',
    'x-agent-runs-extension': true,
    parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500 } }],
    responses: { ...ok('The deliveries', 'ListWebhookDeliveriesResponse'), ...webhookProblems },
  },
  async handle({ url, params, app, caller }) {
    for (const key of url.searchParams.keys()) if (key !== 'limit') throw invalidField(key, 'is not a parameter here; the only one is limit.');
    const raw = url.searchParams.get('limit');
    const limit = raw === null ? 50 : Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw invalidField('limit', 'must be a whole number from 1 to 500.');
    return { deliveries: await app.webhooks.deliveries(params.webhookId!, caller, limit) };
  },
};
