import { agentsPage } from '../catalog-pages.js';
import { cursorOf, LIST_PAGE_SIZE } from '../list-pager.js';
import { page } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /agents`: the caller's named agents, a page at a time. */
export const listNamedAgentsRoute: SignedInRoute = {
  method: 'GET',
  path: '/agents',
  async handle({ url, app, session, caller }) {
    const cursor = cursorOf(url);
    const list = await app.namedAgents.list(caller, { limit: LIST_PAGE_SIZE, cursor });
    return page(agentsPage(session, list.agents, { cursor, next: list.page_info?.next_cursor ?? undefined }));
  },
};
