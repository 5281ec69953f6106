import { ListAgentSkillsQuerySchema } from '@agent-runs/core/contract';
import { invalidInput } from '../domain/invalid-request-input.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent`: the skills the server found, grouped by name, each SKILL.md a variant. */
export const listSkillsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent',
  auth: true,
  handle({ url, app, caller }) {
    const parsed = ListAgentSkillsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw invalidInput(parsed.error, 'query');
    return app.catalog.listSkills(parsed.data, caller);
  },
};
