import { empty } from '../http/reply.js';
import type { AppRoute } from './app-context.js';

/** `DELETE /agent/identities/{uid}`: 204, no body. */
export const deleteIdentityRoute: AppRoute = {
  method: 'DELETE',
  path: '/api/v1/agent/identities/:uid',
  auth: true,
  async handle({ params, app, caller }) {
    await app.identities.delete(params.uid!, caller);
    return empty(204);
  },
};
