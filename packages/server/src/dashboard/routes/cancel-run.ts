import { seeOther } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `POST /runs/:runId/cancel`: back to the run's page, which says the cancel was asked for. */
export const cancelRunRoute: SignedInRoute = {
  method: 'POST',
  path: '/runs/:runId/cancel',
  async handle({ params, app, caller }) {
    const run = await app.runs.cancel(params.runId!, caller);
    return seeOther(`/runs/${encodeURIComponent(run.id)}?done=${encodeURIComponent('Cancel requested.')}`);
  },
};
