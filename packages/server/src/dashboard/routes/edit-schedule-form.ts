import { page } from '../page-reply.js';
import { scheduleFormPage, scheduleValuesOf } from '../schedules-page.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /schedules/:id/edit`: the schedule's form, filled in as it is. */
export const editScheduleFormRoute: SignedInRoute = {
  method: 'GET',
  path: '/schedules/:id/edit',
  async handle({ params, app, session, caller, dashboard }) {
    const schedule = await app.schedules.get(params.id!, caller);
    return page(scheduleFormPage(session, scheduleValuesOf(new URLSearchParams(), schedule), { id: schedule.id }, dashboard.timeZone));
  },
};
