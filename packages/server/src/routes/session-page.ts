import { ApiProblem } from '../http/api-problem.js';
import { sendHtml } from '../http/respond.js';
import type { Route } from '../http/route.js';
import { sessionPageHtml } from './session-page-html.js';

/**
 * `GET /sessions/{sessionId}`: the page `session_link` points at. Opened in a browser, so
 * it takes no API key; the session id is random and known only to those who can read the run.
 */
export function sessionPageRoute(executorName: string): Route {
  return {
    method: 'GET',
    path: '/sessions/:sessionId',
    auth: false,
    async handle({ res, params, app }) {
      const run = await app.store.getBySession(params.sessionId!);
      if (!run) throw new ApiProblem('resource_not_found', `No session "${params.sessionId}".`);
      sendHtml(res, 200, sessionPageHtml(run, await app.store.getOutput(run.id), executorName));
    },
  };
}
