import type { AppRoute } from './app-context.js';

/** `GET /agent/identities/{uid}`. */
export const getIdentityRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/identities/:uid',
  auth: true,
  handle: ({ params, app, caller }) => app.identities.get(params.uid!, caller),
};
