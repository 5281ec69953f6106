import { readJsonBody } from '../http/read-json-body.js';
import { json } from '../http/reply.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/schedules`: a schedule that starts a run at each tick of its cron expression. */
export const createScheduleRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/schedules',
  auth: true,
  async handle({ req, app, caller }) {
    // 201, as the published contract answers a create.
    return json(await app.schedules.create(await readJsonBody(req, app.maxBodyBytes), caller), 201);
  },
};
