import { readJsonBody } from '../http/read-json-body.js';
import type { AppRoute } from './app-context.js';

/** `PUT /agent/webhooks/{webhookId}`: the fields given replace those stored. */
export const updateWebhookRoute: AppRoute = {
  method: 'PUT',
  path: '/api/v1/agent/webhooks/:webhookId',
  auth: true,
  async handle({ req, params, app, caller }) {
    return app.webhooks.update(params.webhookId!, await readJsonBody(req, app.maxBodyBytes), caller);
  },
};
