import type { AppRoute } from './app-context.js';

/** `GET /agent/runs/{runId}/conversation`: the prompt, follow-ups and results, one step per execution. */
export const getConversationRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/conversation',
  auth: true,
  handle: ({ params, app, caller }) => app.reads.conversation(params.runId!, caller),
};
