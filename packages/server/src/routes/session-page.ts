import { ApiProblem } from '../http/api-problem.js';
import { sendHtml } from '../http/respond.js';
import { checkSessionAccess } from '../http/session-access.js';
import type { Route } from '../http/route.js';
import { sessionPageHtml } from './session-page-html.js';

/**
 * `GET /sessions/{sessionId}`: the page `session_link` points at. Opened in a browser, so
 * the link's token opens it (or an API key that can read the run); nothing shows without.
 */
export function sessionPageRoute(executorName: string): Route {
  return {
    method: 'GET',
    path: '/sessions/:sessionId',
    auth: false,
    async handle({ req, res, url, params, app }) {
      const run = await app.store.getBySession(params.sessionId!);
      if (!run) throw new ApiProblem('resource_not_found', `No session "${params.sessionId}".`);
      checkSessionAccess(req, url, run, app);
      sendHtml(res, 200, sessionPageHtml(run, await app.store.getOutput(run.id), executorName));
    },
  };
}
