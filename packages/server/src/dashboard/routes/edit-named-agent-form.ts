import { agentFormPage } from '../catalog-pages.js';
import { page } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /agents/:uid/edit`: the named agent's form, filled in as it is. */
export const editNamedAgentFormRoute: SignedInRoute = {
  method: 'GET',
  path: '/agents/:uid/edit',
  handle: async ({ params, app, session, caller }) => page(agentFormPage(session, await app.namedAgents.get(params.uid!, caller))),
};
