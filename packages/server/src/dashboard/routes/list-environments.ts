import { environmentsPage } from '../catalog-pages.js';
import { page } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /environments`: the environments a run can use. */
export const listEnvironmentsRoute: SignedInRoute = {
  method: 'GET',
  path: '/environments',
  handle: async ({ app, session, caller }) => page(environmentsPage(session, await app.catalog.listEnvironments(caller))),
};
