import { json } from '../openapi/openapi-parts.js';
import { webhookProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `DELETE /agent/webhooks/{webhookId}`: the subscription and its delivery log. */
export const deleteWebhookRoute: AppRoute = {
  method: 'DELETE',
  path: '/api/v1/agent/webhooks/:webhookId',
  auth: true,
  openapi: {
    operationId: 'deleteWebhook',
    summary: 'Delete a subscription and its delivery log',
    'x-agent-runs-extension': true,
    responses: {
      '200': { description: 'Deleted', content: json({ type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } }) },
      ...webhookProblems,
    },
  },
  async handle({ params, app, caller }) {
    await app.webhooks.delete(params.webhookId!, caller);
    return { success: true };
  },
};
