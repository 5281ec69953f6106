import type { AppRouteRequest } from './app-context.js';
import { stream, type Reply } from '../http/reply.js';
import { openSseResponse } from '../http/sse-response.js';
import type { RunRecord } from '../runs/run-reads.js';
import type { RunEventView } from '../runs/run-event-watcher.js';
import { resumeFrom } from './event-id-param.js';

/** Whose streams a new one counts against: the principal's, and a session link's when one is used. */
export interface StreamHolder {
  principal: string;
  sessionLink?: string;
}

/**
 * The one body of every stream of a run's events (the API's, the session page's, the
 * dashboard's): the run's log reconciled, the stream admitted under its holder's caps, then
 * its events from `Last-Event-ID` (or `?last_event_id=`) on, each shown through `view`;
 * the stream ends after the run's terminal `run` event.
 */
export async function streamRunEvents({ req, url, app }: AppRouteRequest, run: RunRecord, view: RunEventView, holder: StreamHolder): Promise<Reply> {
  const afterId = resumeFrom(req, url);
  await app.events.reconcile(run);
  const ticket = app.streamLimits.admit(holder.principal, holder.sessionLink);
  return stream((req, res) => {
    let watcher: { close(): void } | undefined;
    const sink = openSseResponse(req, res, app.heartbeat, () => watcher?.close(), ticket);
    watcher = app.events.watch(run.id, afterId, sink, view);
  });
}
