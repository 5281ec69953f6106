import type { Route } from '../http/route.js';
import { rejectQuery } from './reject-query.js';

/** `GET /agent/schedules`: every schedule, oldest first. */
export const listSchedulesRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/schedules',
  auth: true,
  async handle({ url, app, caller }) {
    rejectQuery(url.searchParams);
    return { schedules: await app.schedules.list(caller) };
  },
};
