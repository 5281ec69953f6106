import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';
import { conversationEntries } from '../runs/conversation-entries.js';
import { toConversationResponse } from '../runs/to-conversation-response.js';

/** `GET /agent/runs/{runId}/conversation`: the prompt, follow-ups and results, one step per execution. */
export const getConversationRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/conversation',
  auth: true,
  async handle({ res, params, app, caller }) {
    const run = await app.runs.getOrThrow(params.runId!, caller);
    sendJson(res, 200, toConversationResponse(run, conversationEntries(run, await app.conversations.list(run.id))));
  },
};
