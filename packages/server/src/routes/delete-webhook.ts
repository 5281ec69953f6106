import type { AppRoute } from './app-context.js';

/** `DELETE /agent/webhooks/{webhookId}`: the subscription and its delivery log. */
export const deleteWebhookRoute: AppRoute = {
  method: 'DELETE',
  path: '/api/v1/agent/webhooks/:webhookId',
  auth: true,
  async handle({ params, app, caller }) {
    await app.webhooks.delete(params.webhookId!, caller);
    return { success: true };
  },
};
