import { ok, problem } from '../openapi/openapi-parts.js';
import { unauthorized } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/conversations/{conversationId}`: the conversation's normalised messages across its runs. */
export const getConversationByIdRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/conversations/:conversationId',
  auth: true,
  openapi: {
    operationId: 'getConversation',
    summary: 'The conversation’s normalised messages across its runs the caller may read, one step per execution',
    responses: { ...ok('The conversation', 'ConversationResponse'), ...unauthorized, '404': problem('No such conversation, or another principal’s') },
  },
  handle: ({ params, app, caller }) => app.reads.conversationById(params.conversationId!, caller),
};
