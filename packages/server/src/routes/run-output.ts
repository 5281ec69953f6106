import { ok } from '../openapi/openapi-parts.js';
import { runProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';
import { parseEventId } from './event-id-param.js';

/** `GET /agent/runs/{runId}/output?since=<id>` (an extension): the stored output after an event id, paged. */
export const runOutputRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/output',
  auth: true,
  openapi: {
    operationId: 'getRunOutput',
    summary: "The run's stored output after an event id, paged (an extension of this server)",
    'x-agent-runs-extension': true,
    parameters: [{ name: 'since', in: 'query', required: false, description: 'An event id; 0 or absent for the start', schema: { type: 'integer', minimum: 0 } }],
    responses: { ...ok('A page of output', 'RunOutputPage'), ...runProblems },
  },
  handle({ url, params, app, caller }) {
    const since = parseEventId(url.searchParams.get('since'), 'since');
    return app.reads.output(params.runId!, since, caller);
  },
};
