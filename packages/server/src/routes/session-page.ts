import { html } from '../http/reply.js';
import type { AppRoute } from './app-context.js';
import { sessionRun } from './session-run.js';
import { sessionPageHtml } from './session-page-html.js';

/** The page shows about this much of the end of the output; the API has the rest. */
const PAGE_OUTPUT_BYTES = 64 * 1024;

/**
 * `GET /sessions/{sessionId}`: the page `session_link` points at. Opened in a browser, so
 * the link's token opens it (or an API key that can read the run); nothing shows without.
 */
export function sessionPageRoute(executorName: string): AppRoute {
  return {
    method: 'GET',
    path: '/sessions/:sessionId',
    auth: false,
    async handle(request) {
      const { app, url } = request;
      const view = await app.reads.sessionPage(await sessionRun(request), PAGE_OUTPUT_BYTES);
      // The stream is read with the page's own query (whatever grants access to the page grants it).
      const events = new URLSearchParams(url.searchParams);
      events.set('last_event_id', String(view.lastEventId));
      const eventsUrl = `${url.pathname.replace(/\/+$/, '')}/events?${events}`;
      return html(sessionPageHtml(view.run, view.output, executorName, eventsUrl, view.artifacts));
    },
  };
}
