import { readJsonBody } from '../http/read-json-body.js';
import { json, ok, ref } from '../openapi/openapi-parts.js';
import { invalidRequest, overQuota, runPartProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';
import { idempotencyKeyOf } from './idempotency-key.js';

/** `POST /agent/runs/{runId}/followups`: a message to the run, in whatever state it is; an `Idempotency-Key` makes a retry safe. */
export const submitFollowupRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/runs/:runId/followups',
  auth: true,
  openapi: {
    operationId: 'submitFollowup',
    summary: 'Send a run a follow-up, in any state: a queued run starts with it, a running one gets it in its inbox, an ended (or cancelled) one runs again',
    requestBody: { required: true, content: json(ref('RunFollowupRequest')) },
    responses: { ...ok('Taken', 'RunFollowupResponse'), ...invalidRequest, ...runPartProblems, ...overQuota },
  },
  async handle({ req, params, app, caller }) {
    const body = await readJsonBody(req, app.maxBodyBytes);
    return app.followups.submit(params.runId!, body, caller, idempotencyKeyOf(req));
  },
};
