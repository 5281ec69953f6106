import { readJsonBody } from '../http/read-json-body.js';
import { json, ok, ref } from '../openapi/openapi-parts.js';
import { catalogProblems, noSuchCatalogItem } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `PUT /agent/schedules/{scheduleId}`: the whole definition replaced. */
export const updateScheduleRoute: AppRoute = {
  method: 'PUT',
  path: '/api/v1/agent/schedules/:scheduleId',
  auth: true,
  openapi: {
    operationId: 'updateSchedule',
    summary: 'Replace a schedule',
    requestBody: { required: true, content: json(ref('ScheduleUpdateRequest')) },
    responses: { ...ok('The schedule', 'ScheduledAgentItem'), ...catalogProblems, ...noSuchCatalogItem },
  },
  async handle({ req, params, app, caller }) {
    return app.schedules.update(params.scheduleId!, await readJsonBody(req, app.maxBodyBytes), caller);
  },
};
