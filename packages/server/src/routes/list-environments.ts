import { ListEnvironmentsQuerySchema } from '@agent-runs/core/contract';
import { invalidInput } from '../domain/invalid-request-input.js';
import { ok, queryParameters } from '../openapi/openapi-parts.js';
import { catalogProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/environments`: the environments the configuration file declares, with their latest run. */
export const listEnvironmentsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/environments',
  auth: true,
  openapi: () => ({
    operationId: 'listEnvironments',
    summary: 'The environments the server configuration declares',
    parameters: queryParameters(ListEnvironmentsQuerySchema),
    responses: { ...ok('The environments', 'ListEnvironmentsResponse'), ...catalogProblems },
  }),
  handle({ url, app, caller }) {
    const parsed = ListEnvironmentsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw invalidInput(parsed.error, 'query');
    return app.catalog.listEnvironments(caller);
  },
};
