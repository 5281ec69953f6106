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
  async handle(request) {
    const run = await request.app.runs.getOrThrow(request.params.runId!, request.caller);
    return streamRunEvents(request, run, (event) => event.data, { principal: request.caller.uid ?? '' });
  },
};
