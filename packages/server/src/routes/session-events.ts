import { openSseResponse } from '../http/sse-response.js';
import type { Route } from '../http/route.js';
import { resumeFrom } from './event-id-param.js';
import { sessionRun } from './session-run.js';
import { sessionView } from './session-view.js';

/** `GET /sessions/{sessionId}/events`: what the session page reads to update itself; the same access as the page. */
export const sessionEventsRoute: Route = {
  method: 'GET',
  path: '/sessions/:sessionId/events',
  auth: false,
  async handle(request) {
    const { req, res, url, app } = request;
    const afterId = resumeFrom(req, url);
    const run = await sessionRun(request);
    await app.events.reconcile(run);
    let watcher: { close(): void } | undefined;
    const sink = openSseResponse(req, res, app.heartbeat, () => watcher?.close());
    watcher = app.events.watch(run.id, afterId, sink, sessionView);
  },
};
