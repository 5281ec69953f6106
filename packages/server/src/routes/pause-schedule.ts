import { ok } from '../openapi/openapi-parts.js';
import { catalogProblems, noSuchCatalogItem } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/schedules/{scheduleId}/pause`: no run until resumed. */
export const pauseScheduleRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/schedules/:scheduleId/pause',
  auth: true,
  openapi: {
    operationId: 'pauseSchedule',
    responses: { ...ok('The schedule', 'ScheduledAgentItem'), ...catalogProblems, ...noSuchCatalogItem },
  },
  handle: ({ params, app, caller }) => app.schedules.pause(params.scheduleId!, caller),
};
