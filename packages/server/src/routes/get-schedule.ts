import { ok } from '../openapi/openapi-parts.js';
import { catalogProblems, noSuchCatalogItem } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/schedules/{scheduleId}`. */
export const getScheduleRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/schedules/:scheduleId',
  auth: true,
  openapi: {
    operationId: 'getSchedule',
    responses: { ...ok('The schedule', 'ScheduledAgentItem'), ...catalogProblems, ...noSuchCatalogItem },
  },
  handle: ({ params, app, caller }) => app.schedules.get(params.scheduleId!, caller),
};
