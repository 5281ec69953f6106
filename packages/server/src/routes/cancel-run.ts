import { json, problem } from '../openapi/openapi-parts.js';
import { runProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/runs/{runId}/cancel`: answers with the run id as a JSON string. */
export const cancelRunRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/runs/:runId/cancel',
  auth: true,
  runToken: true,
  openapi: {
    operationId: 'cancelRun',
    summary: 'Cancel a queued or running run',
    responses: { '200': { description: 'The run id', content: json({ type: 'string' }) }, '409': problem('The run is PENDING'), ...runProblems },
  },
  async handle({ params, app, caller, runToken }) {
    if (runToken) await app.scope.child(runToken, params.runId!);
    return (await app.runs.cancel(params.runId!, caller)).id;
  },
};
