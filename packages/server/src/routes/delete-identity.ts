import type { Route } from '../http/route.js';

/** `DELETE /agent/identities/{uid}`: 204, no body. */
export const deleteIdentityRoute: Route = {
  method: 'DELETE',
  path: '/api/v1/agent/identities/:uid',
  auth: true,
  async handle({ res, params, app, caller }) {
    await app.identities.delete(params.uid!, caller);
    res.writeHead(204).end();
  },
};
