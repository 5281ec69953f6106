import { readJsonBody } from '../http/read-json-body.js';
import { json, ok, ref } from '../openapi/openapi-parts.js';
import { invalidRequest, webhookProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/webhooks/{webhookId}/rotate-secret`: a new secret, shown once; the old one signs too for `overlap_seconds`. */
export const rotateWebhookSecretRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/webhooks/:webhookId/rotate-secret',
  auth: true,
  openapi: {
    operationId: 'rotateWebhookSecret',
    summary: 'A new secret, shown once; the old one keeps signing beside it for overlap_seconds (default a day)',
    'x-agent-runs-extension': true,
    requestBody: { required: false, content: json(ref('WebhookRotateRequest')) },
    responses: { ...ok('Rotated, with the new secret', 'WebhookSubscription'), ...invalidRequest, ...webhookProblems },
  },
  async handle({ req, params, app, caller }) {
    return app.webhooks.rotateSecret(params.webhookId!, await readJsonBody(req, app.maxBodyBytes), caller);
  },
};
