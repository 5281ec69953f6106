import { page } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';
import { workersPage } from '../workers-page.js';

/** `GET /workers`: the self-hosted workers connected now. */
export const listWorkersRoute: SignedInRoute = {
  method: 'GET',
  path: '/workers',
  handle: ({ app, session }) => page(workersPage(session, app.workers.connected().workers)),
};
