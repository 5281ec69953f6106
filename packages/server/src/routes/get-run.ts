import { ok } from '../openapi/openapi-parts.js';
import { runProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/runs/{runId}`: one run in full. */
export const getRunRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId',
  auth: true,
  runToken: true,
  openapi: {
    operationId: 'getRun',
    summary: 'One run in full',
    responses: { ...ok('The run', 'RunItem'), ...runProblems },
  },
  async handle({ params, app, caller, runToken }) {
    if (runToken) await app.scope.family(runToken, params.runId!);
    return app.reads.item(params.runId!, caller);
  },
};
