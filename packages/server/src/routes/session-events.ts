import { stream } from '../http/reply.js';
import { openSseResponse } from '../http/sse-response.js';
import type { Route } from '../http/route.js';
import { sessionView } from '../runs/session-view.js';
import { resumeFrom } from './event-id-param.js';
import { sessionRun } from './session-run.js';

/** `GET /sessions/{sessionId}/events`: what the session page reads to update itself; the same access as the page. */
export const sessionEventsRoute: Route = {
  method: 'GET',
  path: '/sessions/:sessionId/events',
  auth: false,
  async handle(request) {
    const { req, url, app } = request;
    const afterId = resumeFrom(req, url);
    const run = await sessionRun(request);
    await app.events.reconcile(run);
    // A link is a bearer credential of its own: capped apart, and within its run owner's streams.
    const ticket = app.streamLimits.admit(run.creator.uid ?? '', run.sessionId);
    return stream((req, res) => {
      let watcher: { close(): void } | undefined;
      const sink = openSseResponse(req, res, app.heartbeat, () => watcher?.close(), ticket);
      watcher = app.events.watch(run.id, afterId, sink, sessionView);
    });
  },
};
