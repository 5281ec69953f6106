import { readJsonBody } from '../http/read-json-body.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/webhooks/{webhookId}/rotate-secret`: a new secret, shown once; the old one signs too for `overlap_seconds`. */
export const rotateWebhookSecretRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/webhooks/:webhookId/rotate-secret',
  auth: true,
  async handle({ req, params, app, caller }) {
    return app.webhooks.rotateSecret(params.webhookId!, await readJsonBody(req, app.maxBodyBytes), caller);
  },
};
