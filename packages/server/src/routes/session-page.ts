import { sendHtml } from '../http/respond.js';
import type { Route } from '../http/route.js';
import { toArtifactItem } from '../runs/to-artifact.js';
import { artifactsOf } from '../store/artifact-store.js';
import { sessionRun } from './session-run.js';
import { sessionPageHtml } from './session-page-html.js';

/** The page shows about this much of the end of the output; the API has the rest. */
const PAGE_OUTPUT_BYTES = 64 * 1024;

/**
 * `GET /sessions/{sessionId}`: the page `session_link` points at. Opened in a browser, so
 * the link's token opens it (or an API key that can read the run); nothing shows without.
 */
export function sessionPageRoute(executorName: string): Route {
  return {
    method: 'GET',
    path: '/sessions/:sessionId',
    auth: false,
    async handle(request) {
      const { res, app, url } = request;
      let run = await sessionRun(request);
      await app.events.reconcile(run);
      // The log's head first, then the run: a change in between is replayed by the stream.
      const store = app.events.eventStore;
      const head = await store.head(run.id);
      run = await sessionRun(request);
      const tail = await store.outputTail(run.id, head.lastId, PAGE_OUTPUT_BYTES);
      const text = tail.map((event) => (JSON.parse(event.data) as { text: string }).text).join('');
      const omitted = head.droppedThrough > 0 || (tail.length > 0 && (await store.after(run.id, 0, 1, true))[0]!.id < tail[0]!.id);
      // The stream is read with the page's own query (whatever grants access to the page grants it).
      const events = new URLSearchParams(url.searchParams);
      events.set('last_event_id', String(head.lastId));
      const eventsUrl = `${url.pathname.replace(/\/+$/, '')}/events?${events}`;
      const artifacts = (await artifactsOf(app.artifacts, run)).map(toArtifactItem);
      sendHtml(res, 200, sessionPageHtml(run, { text, omitted }, executorName, eventsUrl, artifacts));
    },
  };
}

