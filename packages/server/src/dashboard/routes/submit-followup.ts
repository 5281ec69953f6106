import { seeOther } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `POST /runs/:runId/followups`: a follow-up message (and its mode, when picked) for the run. */
export const submitFollowupRoute: SignedInRoute = {
  method: 'POST',
  path: '/runs/:runId/followups',
  async handle({ params, app, caller, form }) {
    const mode = form.get('mode');
    await app.followups.submit(params.runId!, { message: form.get('message') ?? '', ...(mode ? { mode } : {}) }, caller);
    return seeOther(`/runs/${encodeURIComponent(params.runId!)}?done=${encodeURIComponent('Follow-up sent.')}`);
  },
};
