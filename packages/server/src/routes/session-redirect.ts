import { ok, problem } from '../openapi/openapi-parts.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/sessions/{sessionUuid}/redirect`: the conversation a session belongs to. */
export const sessionRedirectRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/sessions/:sessionUuid/redirect',
  // Without a key, as SDK 1.4 calls it: it reveals only an id as unguessable as the one asked for.
  auth: false,
  openapi: {
    operationId: 'checkSessionRedirect',
    summary: 'The conversation a session belongs to',
    responses: { ...ok('The conversation a session belongs to', 'SessionCheckRedirectResponse'), '404': problem('No such session or conversation') },
  },
  handle: ({ params, app }) => app.reads.sessionConversation(params.sessionUuid!),
};
