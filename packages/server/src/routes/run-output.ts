import type { AppRoute } from './app-context.js';
import { parseEventId } from './event-id-param.js';

/** `GET /agent/runs/{runId}/output?since=<id>` (an extension): the stored output after an event id, paged. */
export const runOutputRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/output',
  auth: true,
  handle({ url, params, app, caller }) {
    const since = parseEventId(url.searchParams.get('since'), 'since');
    return app.reads.output(params.runId!, since, caller);
  },
};
