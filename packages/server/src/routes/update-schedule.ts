import { readJsonBody } from '../http/read-json-body.js';
import type { AppRoute } from './app-context.js';

/** `PUT /agent/schedules/{scheduleId}`: the whole definition replaced. */
export const updateScheduleRoute: AppRoute = {
  method: 'PUT',
  path: '/api/v1/agent/schedules/:scheduleId',
  auth: true,
  async handle({ req, params, app, caller }) {
    return app.schedules.update(params.scheduleId!, await readJsonBody(req, app.maxBodyBytes), caller);
  },
};
