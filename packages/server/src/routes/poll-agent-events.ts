import { AgentEventListSchema, PollAgentEventsQuerySchema } from '@agent-runs/core/contract';
import { json, output, queryParameters } from '../openapi/openapi-parts.js';
import { runProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/events`: the lifecycle events of the watched runs after a sequence number. */
export const pollAgentEventsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/events',
  auth: true,
  runToken: true,
  openapi: () => ({
    operationId: 'pollAgentEvents',
    summary: 'Poll the lifecycle events of watched runs by sequence (`since` resumes after the last one seen)',
    parameters: [
      { name: 'run_ids', in: 'query', required: true, style: 'form', explode: true, schema: { type: 'array', items: { type: 'string' } } },
      ...queryParameters(PollAgentEventsQuerySchema),
    ],
    responses: { '200': { description: 'Events by sequence', content: json(output(AgentEventListSchema)) }, ...runProblems },
  }),
  handle: ({ url, app, caller, runToken }) =>
    app.mailbox.poll(url.searchParams, caller, runToken ? (runId) => app.scope.family(runToken, runId) : undefined),
};
