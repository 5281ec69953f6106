import { readJsonBody } from '../http/read-json-body.js';
import { json } from '../http/reply.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/identities`: a named agent. */
export const createIdentityRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/identities',
  auth: true,
  async handle({ req, app, caller }) {
    // 201, as the published contract answers a create.
    return json(await app.identities.create(await readJsonBody(req, app.maxBodyBytes), caller), 201);
  },
};
