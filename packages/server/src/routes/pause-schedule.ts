import type { AppRoute } from './app-context.js';

/** `POST /agent/schedules/{scheduleId}/pause`: no run until resumed. */
export const pauseScheduleRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/schedules/:scheduleId/pause',
  auth: true,
  handle: ({ params, app, caller }) => app.schedules.pause(params.scheduleId!, caller),
};
