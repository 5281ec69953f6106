import type { Route } from '../http/route.js';

/** `GET /agent/sessions/{sessionUuid}/redirect`: the conversation a session belongs to. */
export const sessionRedirectRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/sessions/:sessionUuid/redirect',
  auth: true,
  handle: ({ params, app, caller }) => app.reads.sessionConversation(params.sessionUuid!, caller),
};
