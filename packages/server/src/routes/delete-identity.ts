import { empty } from '../http/reply.js';
import type { Route } from '../http/route.js';

/** `DELETE /agent/identities/{uid}`: 204, no body. */
export const deleteIdentityRoute: Route = {
  method: 'DELETE',
  path: '/api/v1/agent/identities/:uid',
  auth: true,
  async handle({ params, app, caller }) {
    await app.identities.delete(params.uid!, caller);
    return empty(204);
  },
};
