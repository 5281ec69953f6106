import type { Route } from '../http/route.js';

/** `POST /agent/schedules/{scheduleId}/resume`: fires again from the next tick. */
export const resumeScheduleRoute: Route = {
  method: 'POST',
  path: '/api/v1/agent/schedules/:scheduleId/resume',
  auth: true,
  handle: ({ params, app, caller }) => app.schedules.resume(params.scheduleId!, caller),
};
