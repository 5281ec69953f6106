import { readJsonBody } from '../http/read-json-body.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `PUT /agent/schedules/{scheduleId}`: the whole definition replaced. */
export const updateScheduleRoute: Route = {
  method: 'PUT',
  path: '/api/v1/agent/schedules/:scheduleId',
  auth: true,
  async handle({ req, res, params, app, caller }) {
    sendJson(res, 200, await app.schedules.update(params.scheduleId!, await readJsonBody(req, app.maxBodyBytes), caller));
  },
};
