import { formatIssues, ListAgentIdentitiesQuerySchema } from '@agent-runs/core';
import { ApiProblem } from '../http/api-problem.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `GET /agent/identities`: every named agent, oldest first. */
export const listIdentitiesRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/identities',
  auth: true,
  async handle({ res, url, app, caller }) {
    const parsed = ListAgentIdentitiesQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw new ApiProblem('invalid_request', formatIssues(parsed.error, 'query').join('; '));
    const all = await app.identities.list(caller);
    // This server has no factories: a factory filter matches the agents that name it.
    const agents = parsed.data.factory_uid === undefined ? all : all.filter((a) => a.factory_uid === parsed.data.factory_uid);
    sendJson(res, 200, { agents });
  },
};
