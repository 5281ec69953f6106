import { WEBHOOK_EVENT_TYPES } from '@agent-runs/core/webhooks';
import { readJsonBody } from '../http/read-json-body.js';
import { json } from '../http/reply.js';
import { json as jsonContent, problem, ref } from '../openapi/openapi-parts.js';
import { unauthorized } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/webhooks`: a subscription; its `whsec_` secret is in this answer only. */
export const createWebhookRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/webhooks',
  auth: true,
  openapi: {
    operationId: 'createWebhook',
    summary: 'Subscribe a URL to run events (an extension of this server); the answer carries the whsec_ secret, shown once',
    description:
      `Each event is POSTed as { type, timestamp, data } (data: the run as GET /agent/runs/{runId} answers it, or ids only when thin), ` +
      `signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>). ` +
      `Types: ${WEBHOOK_EVENT_TYPES.join(', ')}. The URL must be https and resolve to a public address.`,
    'x-agent-runs-extension': true,
    requestBody: { required: true, content: jsonContent(ref('WebhookCreateRequest')) },
    responses: {
      '201': { description: 'Created, with its secret', content: jsonContent(ref('WebhookSubscription')) },
      '400': problem('Invalid request, or a URL refused'),
      ...unauthorized,
    },
  },
  async handle({ req, app, caller }) {
    return json(await app.webhooks.create(await readJsonBody(req, app.maxBodyBytes), caller), 201);
  },
};
