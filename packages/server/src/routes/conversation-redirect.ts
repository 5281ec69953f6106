import { ApiProblem } from '../http/api-problem.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `GET /agent/conversations/{conversationId}/redirect`: the session of the conversation's newest run. */
export const conversationRedirectRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/conversations/:conversationId/redirect',
  auth: true,
  async handle({ res, params, app, caller }) {
    const run = await app.store.latestInConversation(params.conversationId!);
    // Another principal's conversation is as unknown as a missing one.
    if (!run || !app.runs.mayRead(caller.uid, run)) throw new ApiProblem('resource_not_found', `No conversation "${params.conversationId}".`);
    sendJson(res, 200, { session_id: run.sessionId });
  },
};
