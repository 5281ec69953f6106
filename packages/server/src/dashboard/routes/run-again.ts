import { seeOther } from '../page-reply.js';
import { requestOf } from '../run-commands.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `POST /runs/:runId/again`: a new run from the request that made this one; on to its page. */
export const runAgainRoute: SignedInRoute = {
  method: 'POST',
  path: '/runs/:runId/again',
  async handle({ params, app, caller }) {
    const run = await app.reads.item(params.runId!, caller);
    const created = await app.runs.create({ body: requestOf(run), creator: caller, source: 'WEB_APP', idempotencyKey: undefined });
    return seeOther(`/runs/${encodeURIComponent(created.run_id)}`);
  },
};
