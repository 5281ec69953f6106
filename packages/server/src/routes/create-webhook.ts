import { readJsonBody } from '../http/read-json-body.js';
import { json } from '../http/reply.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/webhooks`: a subscription; its `whsec_` secret is in this answer only. */
export const createWebhookRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/webhooks',
  auth: true,
  async handle({ req, app, caller }) {
    return json(await app.webhooks.create(await readJsonBody(req, app.maxBodyBytes), caller), 201);
  },
};
