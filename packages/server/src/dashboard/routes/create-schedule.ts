import { saveSchedule } from '../save-schedule.js';
import { scheduleBodyOf } from '../schedules-page.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `POST /schedules`: the new schedule's form, checked or saved. */
export const createScheduleRoute: SignedInRoute = {
  method: 'POST',
  path: '/schedules',
  handle(request) {
    const { app, caller, form } = request;
    return saveSchedule(request, undefined, () => app.schedules.create(scheduleBodyOf(form), caller));
  },
};
