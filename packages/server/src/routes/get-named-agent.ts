import { ok } from '../openapi/openapi-parts.js';
import { catalogProblems, noSuchCatalogItem } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/identities/{uid}`. */
export const getNamedAgentRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/identities/:uid',
  auth: true,
  openapi: {
    operationId: 'getIdentity',
    responses: { ...ok('The named agent', 'AgentIdentity'), ...catalogProblems, ...noSuchCatalogItem },
  },
  handle: ({ params, app, caller }) => app.namedAgents.get(params.uid!, caller),
};
