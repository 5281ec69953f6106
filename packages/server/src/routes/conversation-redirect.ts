import type { Route } from '../http/route.js';

/** `GET /agent/conversations/{conversationId}/redirect`: the session of the conversation's newest run. */
export const conversationRedirectRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/conversations/:conversationId/redirect',
  auth: true,
  handle: ({ params, app, caller }) => app.reads.conversationSession(params.conversationId!, caller),
};
