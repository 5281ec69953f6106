import type { AppRoute } from './app-context.js';

/** `GET /agent/conversations/{conversationId}`: the conversation's normalised messages across its runs. */
export const getConversationByIdRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/conversations/:conversationId',
  auth: true,
  handle: ({ params, app, caller }) => app.reads.conversationById(params.conversationId!, caller),
};
