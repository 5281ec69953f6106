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
  async handle({ res, url, app }) {
    const page = await app.store.list(parseListQuery(url.searchParams));
    const publicUrl = app.publicUrl();
    const artifacts = await app.artifacts.listByRuns(page.runs.map((run) => run.id));
    sendJson(res, 200, {
      runs: page.runs.map((run) => toRunItem(run, publicUrl, artifacts.get(run.id))),
      page_info: { has_next_page: page.next !== undefined, ...(page.next ? { next_cursor: encodeCursor(page.next) } : {}) },
    });
  },
};
