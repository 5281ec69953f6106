import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `POST /agent/schedules/{scheduleId}/pause`: no run until resumed. */
export const pauseScheduleRoute: Route = {
  method: 'POST',
  path: '/api/v1/agent/schedules/:scheduleId/pause',
  auth: true,
  async handle({ res, params, app, caller }) {
    sendJson(res, 200, await app.schedules.pause(params.scheduleId!, caller));
  },
};
