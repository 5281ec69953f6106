import { runProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';
import { streamRunEvents } from './stream-run-events.js';

/**
 * `GET /agent/runs/{runId}/events` (an extension): the run's events as Server-Sent
 * Events, from `Last-Event-ID` on; the stream ends after the run's terminal `run` event.
 */
export const runEventsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/events',
  auth: true,
  runToken: true,
  openapi: {
    operationId: 'streamRunEvents',
    summary: "The run's events as Server-Sent Events (an extension of this server)",
    description: [
      'Each event has an `id` that increases by one per run, an `event` name and JSON `data`:',
      '`run` (the whole RunItem, after every change), `output` (RunOutputData: the agent output in order),',
      '`artifact` and `followup` (from the features that add them), and `skipped` (RunSkippedData, without an id:',
      'output older than the per-run bound was dropped; it follows a `run` event, without an id, carrying the run as it is now).',
      'A comment line is sent at least every 15 s. Resume with the `Last-Event-ID` header (or `last_event_id`):',
      'nothing is lost or repeated while the output is within the bound. The stream ends after the terminal `run` event.',
    ].join(' '),
    'x-agent-runs-extension': true,
    parameters: [
      { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'integer', minimum: 0 } },
      { name: 'last_event_id', in: 'query', required: false, description: 'Used when the header is absent', schema: { type: 'integer', minimum: 0 } },
    ],
    responses: { '200': { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...runProblems },
  },
  async handle(request) {
    // A run token follows the runs of its family (a child it waits for).
    const { runToken, app, params, caller } = request;
    const run = runToken ? await app.scope.family(runToken, params.runId!) : await app.runs.getOrThrow(params.runId!, caller);
    return streamRunEvents(request, run, (event) => event.data, { principal: request.caller.uid ?? '' });
  },
};
