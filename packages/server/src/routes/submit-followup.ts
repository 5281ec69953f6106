import { ApiProblem } from '../http/api-problem.js';
import { readJsonBody } from '../http/read-json-body.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `POST /agent/runs/{runId}/followups`: a message to the run, in whatever state it is; an `Idempotency-Key` makes a retry safe. */
export const submitFollowupRoute: Route = {
  method: 'POST',
  path: '/api/v1/agent/runs/:runId/followups',
  auth: true,
  async handle({ req, res, params, app, caller }) {
    const body = await readJsonBody(req, app.maxBodyBytes);
    const raw = req.headers['idempotency-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key !== undefined && (key.trim() === '' || key.length > 255)) throw new ApiProblem('invalid_request', 'Idempotency-Key: must be 1 to 255 characters.');
    sendJson(res, 200, await app.followups.submit(params.runId!, body, caller, key));
  },
};
