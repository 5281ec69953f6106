import { cursorOf, LIST_PAGE_SIZE } from '../list-pager.js';
import { page } from '../page-reply.js';
import { schedulesPage } from '../schedules-page.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /schedules`: the caller's schedules, a page at a time. */
export const listSchedulesRoute: SignedInRoute = {
  method: 'GET',
  path: '/schedules',
  async handle({ url, app, session, caller }) {
    const cursor = cursorOf(url);
    const list = await app.schedules.list(caller, { limit: LIST_PAGE_SIZE, cursor });
    return page(schedulesPage(session, list.schedules, { cursor, next: list.page_info?.next_cursor ?? undefined }));
  },
};
