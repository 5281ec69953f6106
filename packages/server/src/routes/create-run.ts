import { CALLER_SOURCE_HEADER, sourceFromHeader } from '@agent-runs/core/contract';
import { readJsonBody } from '../http/read-json-body.js';
import type { AppRoute, AppRouteRequest } from './app-context.js';
import { idempotencyKeyOf } from './idempotency-key.js';

async function createRun({ req, app, caller }: AppRouteRequest) {
  const body = await readJsonBody(req, app.maxBodyBytes);
  return app.runs.create({
    body,
    creator: caller,
    source: sourceFromHeader(req.headers[CALLER_SOURCE_HEADER]),
    idempotencyKey: idempotencyKeyOf(req),
  });
}

/** `POST /agent/run`: the path the description names. */
export const createRunRoute: AppRoute = { method: 'POST', path: '/api/v1/agent/run', auth: true, handle: createRun };
/** `POST /agent/runs`: the service's preferred alias, the same behaviour. */
export const createRunsRoute: AppRoute = { method: 'POST', path: '/api/v1/agent/runs', auth: true, handle: createRun };
