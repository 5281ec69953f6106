import { readJsonBody } from '../http/read-json-body.js';
import { json, ok, ref } from '../openapi/openapi-parts.js';
import { catalogProblems, noSuchCatalogItem } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `PUT /agent/identities/{uid}`: members given replace, null clears. */
export const updateNamedAgentRoute: AppRoute = {
  method: 'PUT',
  path: '/api/v1/agent/identities/:uid',
  auth: true,
  openapi: {
    operationId: 'updateIdentity',
    requestBody: { required: true, content: json(ref('UpdateAgentIdentityRequest')) },
    responses: { ...ok('The named agent', 'AgentIdentity'), ...catalogProblems, ...noSuchCatalogItem },
  },
  async handle({ req, params, app, caller }) {
    return app.namedAgents.update(params.uid!, await readJsonBody(req, app.maxBodyBytes), caller);
  },
};
