import { seeOther } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `POST /schedules/:id/resume`: back to the schedules. */
export const resumeScheduleRoute: SignedInRoute = {
  method: 'POST',
  path: '/schedules/:id/resume',
  async handle({ params, app, caller }) {
    await app.schedules.resume(params.id!, caller);
    return seeOther('/schedules');
  },
};
