import { stream } from '../../http/reply.js';
import { parseListQuery } from '../../runs/parse-list-query.js';
import { apiListParams } from '../runs-query.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /live/runs`: the event stream of changed rows of the runs table the same query shows. */
export const liveRunsRoute: SignedInRoute = {
  method: 'GET',
  path: '/live/runs',
  handle({ url, app, caller, dashboard }) {
    const params = apiListParams(url.searchParams);
    const query = parseListQuery(params);
    const ticket = app.streamLimits.admit(caller.uid ?? '');
    return stream((req, res) => dashboard.liveViews(app).open(req, res, caller, query, params.toString(), ticket));
  },
};
