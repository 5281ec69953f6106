import { page } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';
import { workersPage } from '../workers-page.js';

/** `GET /workers`: the self-hosted workers connected now. */
export const listWorkersRoute: SignedInRoute = {
  method: 'GET',
  path: '/workers',
  handle: async ({ app, session }) => page(workersPage(session, (await app.workers.connected()).workers)),
};
