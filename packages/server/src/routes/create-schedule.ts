import { readJsonBody } from '../http/read-json-body.js';
import { json } from '../http/reply.js';
import { created, json as jsonContent, ref } from '../openapi/openapi-parts.js';
import { catalogProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/schedules`: a schedule that starts a run at each tick of its cron expression. */
export const createScheduleRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/schedules',
  auth: true,
  openapi: {
    operationId: 'createSchedule',
    summary: 'A schedule that starts a run at each tick of a 5-field cron expression',
    requestBody: { required: true, content: jsonContent(ref('ScheduleCreateRequest')) },
    responses: { ...created('The schedule', 'ScheduledAgentItem'), ...catalogProblems },
  },
  async handle({ req, app, caller }) {
    // 201, as the published contract answers a create.
    return json(await app.schedules.create(await readJsonBody(req, app.maxBodyBytes), caller), 201);
  },
};
