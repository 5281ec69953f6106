import { stream } from '../http/reply.js';
import { openSseResponse } from '../http/sse-response.js';
import type { Route } from '../http/route.js';
import { resumeFrom } from './event-id-param.js';

/**
 * `GET /agent/runs/{runId}/events` (an extension): the run's events as Server-Sent
 * Events, from `Last-Event-ID` on; the stream ends after the run's terminal `run` event.
 */
export const runEventsRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/events',
  auth: true,
  async handle({ req, url, params, app, caller }) {
    const afterId = resumeFrom(req, url);
    const run = await app.runs.getOrThrow(params.runId!, caller);
    await app.events.reconcile(run);
    const ticket = app.streamLimits.admit(caller.uid ?? '');
    return stream((req, res) => {
      let watcher: { close(): void } | undefined;
      const sink = openSseResponse(req, res, app.heartbeat, () => watcher?.close(), ticket);
      watcher = app.events.watch(run.id, afterId, sink, (event) => event.data);
    });
  },
};
