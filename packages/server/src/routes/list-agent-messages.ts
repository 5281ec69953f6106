import { AgentMessageListSchema, ListAgentMessagesQuerySchema } from '@agent-runs/core/contract';
import { json, output, queryParameters } from '../openapi/openapi-parts.js';
import { runProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/messages/{runId}`: a run's inbox, its message headers oldest first. */
export const listAgentMessagesRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/messages/:runId',
  auth: true,
  runToken: true,
  openapi: () => ({
    operationId: 'listAgentMessages',
    summary: 'A run’s inbox: message headers, oldest first (`unread`, `since`, `limit` ≤ 100)',
    parameters: queryParameters(ListAgentMessagesQuerySchema),
    responses: { '200': { description: 'Message headers', content: json(output(AgentMessageListSchema)) }, ...runProblems },
  }),
  async handle({ params, url, app, caller, runToken }) {
    if (runToken) await app.scope.own(runToken, params.runId!);
    return app.mailbox.list(params.runId!, url.searchParams, caller);
  },
};
