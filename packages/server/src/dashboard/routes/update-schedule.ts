import { saveSchedule } from '../save-schedule.js';
import { scheduleBodyOf } from '../schedules-page.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `POST /schedules/:id`: the schedule's form, checked or saved. */
export const updateScheduleRoute: SignedInRoute = {
  method: 'POST',
  path: '/schedules/:id',
  handle(request) {
    const { params, app, caller, form } = request;
    return saveSchedule(request, params.id!, () => app.schedules.update(params.id!, scheduleBodyOf(form), caller));
  },
};
