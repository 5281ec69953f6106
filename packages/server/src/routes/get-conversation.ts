import { ok } from '../openapi/openapi-parts.js';
import { runPartProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/runs/{runId}/conversation`: the prompt, follow-ups and results, one step per execution. */
export const getConversationRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/conversation',
  auth: true,
  openapi: {
    operationId: 'getRunConversation',
    summary: "The run's normalised conversation: one step per execution",
    responses: { ...ok('The conversation', 'ConversationResponse'), ...runPartProblems },
  },
  handle: ({ params, app, caller }) => app.reads.conversation(params.runId!, caller),
};
