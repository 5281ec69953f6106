import { formatIssues, ListEnvironmentsQuerySchema } from '@agent-runs/core';
import { ApiProblem } from '../http/api-problem.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `GET /agent/environments`: the environments the configuration file declares, with their latest run. */
export const listEnvironmentsRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/environments',
  auth: true,
  async handle({ res, url, app }) {
    const parsed = ListEnvironmentsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw new ApiProblem('invalid_request', formatIssues(parsed.error, 'query').join('; '));
    const declared = app.environments.list();
    const lastRuns = await Promise.all(declared.map((env) => app.activity.lastRunInEnvironment(env.id)));
    const environments = declared
      .map((env, i) => app.environments.toCloudEnvironment(env, lastRuns[i]))
      // All share one last_updated (the file's), so both sorts are by name.
      .sort((a, b) => (a.config.name ?? a.uid).localeCompare(b.config.name ?? b.uid));
    sendJson(res, 200, { environments });
  },
};
