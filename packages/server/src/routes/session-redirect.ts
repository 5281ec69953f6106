import { ApiProblem } from '../http/api-problem.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `GET /agent/sessions/{sessionUuid}/redirect`: the conversation a session belongs to. */
export const sessionRedirectRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/sessions/:sessionUuid/redirect',
  auth: true,
  async handle({ res, params, app, caller }) {
    const run = await app.store.getBySession(params.sessionUuid!);
    // Another principal's session is as unknown as a missing one.
    if (!run || !app.runs.mayRead(caller.uid, run)) throw new ApiProblem('resource_not_found', `No session "${params.sessionUuid}".`);
    sendJson(res, 200, run.conversationId !== undefined ? { conversation_id: run.conversationId } : {});
  },
};
