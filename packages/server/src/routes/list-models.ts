import { ok } from '../openapi/openapi-parts.js';
import { catalogProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/models`: the models of the harnesses this server can run, and which are disabled. */
export const listModelsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/models',
  auth: true,
  openapi: {
    operationId: 'listModels',
    summary: 'The models of the harnesses this server can run (disable_reason on those it cannot)',
    responses: { ...ok('The models', 'ListModelsResponse'), ...catalogProblems },
  },
  handle({ app }) {
    return app.models.list();
  },
};
