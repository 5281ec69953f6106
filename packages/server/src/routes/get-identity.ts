import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `GET /agent/identities/{uid}`. */
export const getIdentityRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/identities/:uid',
  auth: true,
  async handle({ res, params, app, caller }) {
    sendJson(res, 200, await app.identities.get(params.uid!, caller));
  },
};
