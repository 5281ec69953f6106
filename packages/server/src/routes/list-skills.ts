import { ListAgentSkillsQuerySchema } from '@agent-runs/core/contract';
import { invalidInput } from '../domain/invalid-request-input.js';
import { ok, queryParameters } from '../openapi/openapi-parts.js';
import { catalogProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent`: the skills the server found, grouped by name, each SKILL.md a variant. */
export const listSkillsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent',
  auth: true,
  openapi: () => ({
    operationId: 'listSkills',
    summary: 'The skills (SKILL.md files) the server found',
    parameters: queryParameters(ListAgentSkillsQuerySchema),
    responses: { ...ok('The skills', 'ListAgentSkillsResponse'), ...catalogProblems },
  }),
  handle({ url, app, caller }) {
    const parsed = ListAgentSkillsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw invalidInput(parsed.error, 'query');
    return app.catalog.listSkills(parsed.data, caller);
  },
};
