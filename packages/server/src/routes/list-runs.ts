import type { AppRoute } from './app-context.js';
import { parseListQuery } from '../runs/parse-list-query.js';

/** `GET /agent/runs`: a keyset page of runs, filtered and sorted. */
export const listRunsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs',
  auth: true,
  handle: ({ url, app, caller }) => app.reads.list(parseListQuery(url.searchParams), caller),
};
