import { page } from '../page-reply.js';
import { scheduleFormPage, scheduleValuesOf } from '../schedules-page.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /schedules/new`: the form for a new schedule, empty. */
export const newScheduleFormRoute: SignedInRoute = {
  method: 'GET',
  path: '/schedules/new',
  handle: ({ session, dashboard }) => page(scheduleFormPage(session, scheduleValuesOf(new URLSearchParams()), {}, dashboard.timeZone)),
};
