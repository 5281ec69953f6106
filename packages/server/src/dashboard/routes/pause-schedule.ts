import { seeOther } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `POST /schedules/:id/pause`: back to the schedules. */
export const pauseScheduleRoute: SignedInRoute = {
  method: 'POST',
  path: '/schedules/:id/pause',
  async handle({ params, app, caller }) {
    await app.schedules.pause(params.id!, caller);
    return seeOther('/schedules');
  },
};
