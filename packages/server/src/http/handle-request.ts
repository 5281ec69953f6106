import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkRequestOrigin } from '@agent-runs/core';
import { ApiProblem } from './api-problem.js';
import { requireJsonContentType } from './json-content-type.js';
import { sendProblem } from './respond.js';
import type { AppContext } from './route.js';
import type { Router } from './router.js';

/** Routes one request; any failure becomes an Error body, never a crash. */
export async function handleRequest(
  router: Router,
  app: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  log: (line: string) => void,
): Promise<void> {
  let instance = req.url ?? '/';
  try {
    const url = new URL(req.url ?? '/', 'http://server.invalid');
    instance = url.pathname;
    // Cross-site and DNS-rebinding requests are refused before anything else is looked at.
    const rejected = checkRequestOrigin(req.headers, app.originGuard());
    if (rejected) throw new ApiProblem('not_authorized', rejected.message, { status: rejected.status, retryable: false });
    requireJsonContentType(req);
    const { route, params } = router.match(req.method ?? 'GET', url.pathname);
    const caller = route.auth ? app.auth.authenticate(req) : { uid: 'anonymous' };
    await route.handle({ req, res, url, params, app, caller });
  } catch (error) {
    // The caller went away mid-request: there is no one to answer.
    if (req.destroyed && !(error instanceof ApiProblem)) return;
    if (error instanceof ApiProblem) {
      sendProblem(res, error, instance);
      return;
    }
    log(`Internal error on ${req.method} ${instance}: ${(error as Error).stack ?? String(error)}`);
    sendProblem(res, new ApiProblem('internal_error', 'The server failed to answer; try again.'), instance);
  }
}
