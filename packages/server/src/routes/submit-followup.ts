import { readJsonBody } from '../http/read-json-body.js';
import type { AppRoute } from './app-context.js';
import { idempotencyKeyOf } from './idempotency-key.js';

/** `POST /agent/runs/{runId}/followups`: a message to the run, in whatever state it is; an `Idempotency-Key` makes a retry safe. */
export const submitFollowupRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/runs/:runId/followups',
  auth: true,
  async handle({ req, params, app, caller }) {
    const body = await readJsonBody(req, app.maxBodyBytes);
    return app.followups.submit(params.runId!, body, caller, idempotencyKeyOf(req));
  },
};
