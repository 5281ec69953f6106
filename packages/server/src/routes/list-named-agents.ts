import { ListAgentIdentitiesQuerySchema } from '@agent-runs/core/contract';
import { invalidInput } from '../domain/invalid-request-input.js';
import { ok, queryParameters } from '../openapi/openapi-parts.js';
import { catalogProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/identities?limit=&cursor=`: a page of the caller's named agents, oldest first. */
export const listNamedAgentsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/identities',
  auth: true,
  openapi: () => ({
    operationId: 'listIdentities',
    summary: 'A page of the caller’s named agents, oldest first',
    parameters: queryParameters(ListAgentIdentitiesQuerySchema),
    responses: { ...ok('The named agents', 'ListAgentIdentitiesResponse'), ...catalogProblems },
  }),
  async handle({ url, app, caller }) {
    const parsed = ListAgentIdentitiesQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw invalidInput(parsed.error, 'query');
    return app.namedAgents.list(caller, parsed.data);
  },
};
