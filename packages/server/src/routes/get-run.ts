import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';
import { toRunItem } from '../runs/to-run-item.js';
import { artifactsOf } from '../store/artifact-store.js';

/** `GET /agent/runs/{runId}`: one run in full. */
export const getRunRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId',
  auth: true,
  async handle({ res, params, app, caller }) {
    const run = await app.runs.getOrThrow(params.runId!, caller);
    sendJson(res, 200, toRunItem(run, app.sessionLink(run), await artifactsOf(app.artifacts, run)));
  },
};
