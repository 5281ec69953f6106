import type { Route } from '../http/route.js';

/** `GET /agent/identities/{uid}`. */
export const getIdentityRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/identities/:uid',
  auth: true,
  handle: ({ params, app, caller }) => app.identities.get(params.uid!, caller),
};
