import type { AppRoute } from './app-context.js';

/** `GET /agent/runs/{runId}`: one run in full. */
export const getRunRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId',
  auth: true,
  handle: ({ params, app, caller }) => app.reads.item(params.runId!, caller),
};
