import { empty } from '../http/reply.js';
import { catalogProblems, noSuchCatalogItem } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `DELETE /agent/identities/{uid}`: 204, no body. */
export const deleteNamedAgentRoute: AppRoute = {
  method: 'DELETE',
  path: '/api/v1/agent/identities/:uid',
  auth: true,
  openapi: {
    operationId: 'deleteIdentity',
    responses: { '204': { description: 'Deleted' }, ...catalogProblems, ...noSuchCatalogItem },
  },
  async handle({ params, app, caller }) {
    await app.namedAgents.delete(params.uid!, caller);
    return empty(204);
  },
};
