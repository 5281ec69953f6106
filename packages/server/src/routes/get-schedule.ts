import type { Route } from '../http/route.js';

/** `GET /agent/schedules/{scheduleId}`. */
export const getScheduleRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/schedules/:scheduleId',
  auth: true,
  handle: ({ params, app, caller }) => app.schedules.get(params.scheduleId!, caller),
};
