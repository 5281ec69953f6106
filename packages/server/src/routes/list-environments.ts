import { ListEnvironmentsQuerySchema } from '@agent-runs/core/contract';
import { invalidInput } from '../domain/invalid-request-input.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/environments`: the environments the configuration file declares, with their latest run. */
export const listEnvironmentsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/environments',
  auth: true,
  handle({ url, app, caller }) {
    const parsed = ListEnvironmentsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw invalidInput(parsed.error, 'query');
    return app.catalog.listEnvironments(caller);
  },
};
