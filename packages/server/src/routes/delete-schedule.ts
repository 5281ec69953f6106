import { ok } from '../openapi/openapi-parts.js';
import { catalogProblems, noSuchCatalogItem } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `DELETE /agent/schedules/{scheduleId}`: the runs it started stay. */
export const deleteScheduleRoute: AppRoute = {
  method: 'DELETE',
  path: '/api/v1/agent/schedules/:scheduleId',
  auth: true,
  openapi: {
    operationId: 'deleteSchedule',
    responses: { ...ok('Deleted', 'ScheduleDeleteResponse'), ...catalogProblems, ...noSuchCatalogItem },
  },
  async handle({ params, app, caller }) {
    await app.schedules.delete(params.scheduleId!, caller);
    return { success: true };
  },
};
