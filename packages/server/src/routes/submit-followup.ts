import { readJsonBody } from '../http/read-json-body.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `POST /agent/runs/{runId}/followups`: a message to the run, in whatever state it is. */
export const submitFollowupRoute: Route = {
  method: 'POST',
  path: '/api/v1/agent/runs/:runId/followups',
  auth: true,
  async handle({ req, res, params, app }) {
    const body = await readJsonBody(req, app.maxBodyBytes);
    sendJson(res, 200, await app.followups.submit(params.runId!, body));
  },
};
