import { ok } from '../openapi/openapi-parts.js';
import { catalogProblems, noSuchCatalogItem } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/schedules/{scheduleId}/resume`: fires again from the next tick. */
export const resumeScheduleRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/schedules/:scheduleId/resume',
  auth: true,
  openapi: {
    operationId: 'resumeSchedule',
    responses: { ...ok('The schedule', 'ScheduledAgentItem'), ...catalogProblems, ...noSuchCatalogItem },
  },
  handle: ({ params, app, caller }) => app.schedules.resume(params.scheduleId!, caller),
};
