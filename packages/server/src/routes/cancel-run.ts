import type { AppRoute } from './app-context.js';

/** `POST /agent/runs/{runId}/cancel`: answers with the run id as a JSON string. */
export const cancelRunRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/runs/:runId/cancel',
  auth: true,
  async handle({ params, app, caller }) {
    return (await app.runs.cancel(params.runId!, caller)).id;
  },
};
