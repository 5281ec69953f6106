import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';
import { rejectQuery } from './reject-query.js';

/** `GET /agent/schedules`: every schedule, oldest first. */
export const listSchedulesRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/schedules',
  auth: true,
  async handle({ res, url, app, caller }) {
    rejectQuery(url.searchParams);
    sendJson(res, 200, { schedules: await app.schedules.list(caller) });
  },
};
