import { ListSchedulesQuerySchema } from '@agent-runs/core/contract';
import { invalidInput } from '../domain/invalid-request-input.js';
import { ok, queryParameters } from '../openapi/openapi-parts.js';
import { catalogProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/schedules?limit=&cursor=`: a page of the caller's schedules, oldest first. */
export const listSchedulesRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/schedules',
  auth: true,
  openapi: () => ({
    operationId: 'listSchedules',
    summary: 'A page of the caller’s schedules, oldest first',
    parameters: queryParameters(ListSchedulesQuerySchema),
    responses: { ...ok('The schedules', 'ListSchedulesResponse'), ...catalogProblems },
  }),
  async handle({ url, app, caller }) {
    const parsed = ListSchedulesQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw invalidInput(parsed.error, 'query');
    return app.schedules.list(caller, parsed.data);
  },
};
