import { readJsonBody } from '../http/read-json-body.js';
import { json } from '../http/reply.js';
import { created, json as jsonContent, ref } from '../openapi/openapi-parts.js';
import { catalogProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/identities`: a named agent. */
export const createNamedAgentRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/identities',
  auth: true,
  openapi: {
    operationId: 'createIdentity',
    requestBody: { required: true, content: jsonContent(ref('CreateAgentIdentityRequest')) },
    responses: { ...created('The named agent', 'AgentIdentity'), ...catalogProblems },
  },
  async handle({ req, app, caller }) {
    // 201, as the published contract answers a create.
    return json(await app.namedAgents.create(await readJsonBody(req, app.maxBodyBytes), caller), 201);
  },
};
