import type { Route } from '../http/route.js';

/** `GET /agent/conversations/{conversationId}`: the conversation's normalised messages across its runs. */
export const getConversationByIdRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/conversations/:conversationId',
  auth: true,
  handle: ({ params, app, caller }) => app.reads.conversationById(params.conversationId!, caller),
};
