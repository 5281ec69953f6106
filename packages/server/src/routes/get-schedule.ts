import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `GET /agent/schedules/{scheduleId}`. */
export const getScheduleRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/schedules/:scheduleId',
  auth: true,
  async handle({ res, params, app, caller }) {
    sendJson(res, 200, await app.schedules.get(params.scheduleId!, caller));
  },
};
