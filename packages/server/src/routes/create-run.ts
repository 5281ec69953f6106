import { CALLER_SOURCE_HEADER, sourceFromHeader } from '@agent-runs/core/contract';
import { ApiProblem } from '../http/api-problem.js';
import { readJsonBody } from '../http/read-json-body.js';
import { sendJson } from '../http/respond.js';
import type { Route, RouteRequest } from '../http/route.js';

const MAX_IDEMPOTENCY_KEY = 255;

async function createRun({ req, res, app, caller }: RouteRequest): Promise<void> {
  const body = await readJsonBody(req, app.maxBodyBytes);
  const rawKey = req.headers['idempotency-key'];
  const idempotencyKey = Array.isArray(rawKey) ? rawKey[0] : rawKey;
  if (idempotencyKey !== undefined && (idempotencyKey.trim() === '' || idempotencyKey.length > MAX_IDEMPOTENCY_KEY)) {
    throw new ApiProblem('invalid_request', `Idempotency-Key: must be 1 to ${MAX_IDEMPOTENCY_KEY} characters.`);
  }
  const created = await app.runs.create({
    body,
    creator: caller,
    source: sourceFromHeader(req.headers[CALLER_SOURCE_HEADER]),
    idempotencyKey,
  });
  sendJson(res, 200, created);
}

/** `POST /agent/run`: the path the description names. */
export const createRunRoute: Route = { method: 'POST', path: '/api/v1/agent/run', auth: true, handle: createRun };
/** `POST /agent/runs`: the service's preferred alias, the same behaviour. */
export const createRunsRoute: Route = { method: 'POST', path: '/api/v1/agent/runs', auth: true, handle: createRun };
