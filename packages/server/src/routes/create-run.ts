import { CALLER_SOURCE_HEADER, sourceFromHeader } from '@agent-runs/core/contract';
import { rateLimitHeaders } from '../http/rate-limit-headers.js';
import { readJsonBody } from '../http/read-json-body.js';
import { json as jsonReply } from '../http/reply.js';
import type { OpenApiOperation } from '../openapi/openapi-operation.js';
import { json, ok, problem, ref } from '../openapi/openapi-parts.js';
import { overQuota, runProblems } from '../openapi/problem-responses.js';
import type { AppRoute, AppRouteRequest } from './app-context.js';
import { idempotencyKeyOf } from './idempotency-key.js';

async function createRun({ req, app, caller, runToken }: AppRouteRequest) {
  const sent = await readJsonBody(req, app.maxBodyBytes);
  // An agent's own token creates children of its run only.
  const body = runToken ? await app.scope.childRequest(runToken, sent) : sent;
  const { response, quota } = await app.runs.createWithQuota({
    body,
    creator: caller,
    source: sourceFromHeader(req.headers[CALLER_SOURCE_HEADER]),
    idempotencyKey: idempotencyKeyOf(req),
  });
  // Where the caller stands against its per-minute quota, when one applies: from the check's read, none of its own.
  if (!quota) return response;
  return jsonReply(response, 200, rateLimitHeaders(quota.quota, quota.limit, quota.windowSeconds, quota.remaining, quota.resetSeconds));
}

const createRunOperation: OpenApiOperation = {
  operationId: 'createRun',
  summary: 'Create a run',
  description:
    'Metadata, mode, attachments (stored and given to the agent), conversation_id, parent_run_id, interactive and ' +
    'agent_identity_uid are stored with the run; metadata can be filtered on when listing. A parent_run_id or ' +
    'conversation_id the caller may not see is a 400. Without a prompt, a run takes its base prompt from its skills, ' +
    'or continues its conversation with the conversation’s last instruction.',
  parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } }],
  requestBody: { required: true, content: json(ref('RunAgentRequest')) },
  responses: {
    ...ok('The run', 'RunAgentResponse'),
    '409': problem('Idempotency-Key reused with another body'),
    '413': problem('The body is larger than the server accepts'),
    ...runProblems,
    ...overQuota,
  },
};

/** `POST /agent/run`: the path the description names. */
export const createRunRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/run',
  auth: true,
  runToken: true,
  openapi: { ...createRunOperation, operationId: 'createRunAlias', summary: 'Create a run (the same as POST /agent/runs)' },
  handle: createRun,
};
/** `POST /agent/runs`: the service's preferred alias, the same behaviour. */
export const createRunsRoute: AppRoute = { method: 'POST', path: '/api/v1/agent/runs', auth: true, runToken: true, openapi: createRunOperation, handle: createRun };
