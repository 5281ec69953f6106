import { ok, problem } from '../openapi/openapi-parts.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/conversations/{conversationId}/redirect`: the session of the newest run the conversation's owner added. */
export const conversationRedirectRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/conversations/:conversationId/redirect',
  // Without a key, as SDK 1.4 calls it: it reveals only an id as unguessable as the one asked for.
  auth: false,
  openapi: {
    operationId: 'checkConversationRedirect',
    summary: 'The session of the newest run the conversation’s owner added',
    responses: {
      ...ok('The session of the newest run the conversation’s owner added', 'ConversationCheckRedirectResponse'),
      '404': problem('No such session or conversation'),
    },
  },
  handle: ({ params, app }) => app.reads.conversationSession(params.conversationId!),
};
