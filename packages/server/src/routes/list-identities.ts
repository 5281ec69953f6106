import { ListAgentIdentitiesQuerySchema } from '@agent-runs/core/contract';
import { invalidInput } from '../domain/invalid-request-input.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/identities?limit=&cursor=`: a page of the caller's named agents, oldest first. */
export const listIdentitiesRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/identities',
  auth: true,
  async handle({ url, app, caller }) {
    const parsed = ListAgentIdentitiesQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw invalidInput(parsed.error, 'query');
    return app.identities.list(caller, parsed.data);
  },
};
