import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';
import { encodeCursor } from '../store/list-cursor.js';
import { toRunItem } from '../runs/to-run-item.js';
import { parseListQuery } from './list-query.js';

/** `GET /agent/runs`: a keyset page of runs, filtered and sorted. */
export const listRunsRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/runs',
  auth: true,
  async handle({ res, url, app, caller }) {
    const query = parseListQuery(url.searchParams);
    if (!app.runs.sharedRuns) {
      // A key lists its own principal's runs; a creator filter naming another matches none.
      if (query.creator !== undefined && query.creator !== caller.uid) {
        sendJson(res, 200, { runs: [], page_info: { has_next_page: false } });
        return;
      }
      query.creator = caller.uid ?? '';
    }
    const page = await app.store.list(query);
    const artifacts = await app.artifacts.listByRuns(page.runs.map((run) => run.id));
    sendJson(res, 200, {
      runs: page.runs.map((run) => toRunItem(run, app.sessionLink(run), artifacts.get(run.id))),
      page_info: { has_next_page: page.next !== undefined, ...(page.next ? { next_cursor: encodeCursor(page.next) } : {}) },
    });
  },
};
