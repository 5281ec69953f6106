import type { AppRoute } from './app-context.js';
import { sessionView } from '../runs/session-view.js';
import { sessionRun } from './session-run.js';
import { streamRunEvents } from './stream-run-events.js';

/** `GET /sessions/{sessionId}/events`: what the session page reads to update itself; the same access as the page. */
export const sessionEventsRoute: AppRoute = {
  method: 'GET',
  path: '/sessions/:sessionId/events',
  auth: false,
  async handle(request) {
    const run = await sessionRun(request);
    // A link is a bearer credential of its own: capped apart, and within its run owner's streams.
    return streamRunEvents(request, run, sessionView, { principal: run.creator.uid ?? '', sessionLink: run.sessionId });
  },
};
