import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `POST /agent/schedules/{scheduleId}/resume`: fires again from the next tick. */
export const resumeScheduleRoute: Route = {
  method: 'POST',
  path: '/api/v1/agent/schedules/:scheduleId/resume',
  auth: true,
  async handle({ res, params, app, caller }) {
    sendJson(res, 200, await app.schedules.resume(params.scheduleId!, caller));
  },
};
