import { ReportAgentEventRequestSchema, ReportAgentEventResponseSchema } from '@agent-runs/core/contract';
import { readJsonBody } from '../http/read-json-body.js';
import { input, json, output } from '../openapi/openapi-parts.js';
import { runProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/events/{runId}`: a lifecycle event a client reports for a run. */
export const reportAgentEventRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/events/:runId',
  auth: true,
  openapi: () => ({
    operationId: 'reportAgentEvent',
    summary: 'Report a lifecycle event of a run; answers its sequence in the feed',
    requestBody: { required: true, content: json(input(ReportAgentEventRequestSchema)) },
    responses: { '200': { description: 'Recorded', content: json(output(ReportAgentEventResponseSchema)) }, ...runProblems },
  }),
  async handle({ req, params, app, caller }) {
    return app.mailbox.report(params.runId!, await readJsonBody(req, app.maxBodyBytes), caller);
  },
};
