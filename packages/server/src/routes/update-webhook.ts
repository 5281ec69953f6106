import { readJsonBody } from '../http/read-json-body.js';
import { json, ok, ref } from '../openapi/openapi-parts.js';
import { invalidRequest, webhookProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `PUT /agent/webhooks/{webhookId}`: the fields given replace those stored. */
export const updateWebhookRoute: AppRoute = {
  method: 'PUT',
  path: '/api/v1/agent/webhooks/:webhookId',
  auth: true,
  openapi: {
    operationId: 'updateWebhook',
    summary: 'Change a subscription: the fields given replace those stored (enabled: true again after a 410 disabled it)',
    'x-agent-runs-extension': true,
    requestBody: { required: true, content: json(ref('WebhookUpdateRequest')) },
    responses: { ...ok('Changed', 'WebhookSubscription'), ...invalidRequest, ...webhookProblems },
  },
  async handle({ req, params, app, caller }) {
    return app.webhooks.update(params.webhookId!, await readJsonBody(req, app.maxBodyBytes), caller);
  },
};
