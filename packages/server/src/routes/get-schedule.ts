import type { AppRoute } from './app-context.js';

/** `GET /agent/schedules/{scheduleId}`. */
export const getScheduleRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/schedules/:scheduleId',
  auth: true,
  handle: ({ params, app, caller }) => app.schedules.get(params.scheduleId!, caller),
};
