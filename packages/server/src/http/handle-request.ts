import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkRequestOrigin } from '@agent-runs/core/contract';
import { DomainError } from '../domain/domain-errors.js';
import { isRunToken, type RunTokenGrant } from '../domain/run-tokens.js';
import { ApiProblem } from './api-problem.js';
import { domainProblem } from './domain-problem.js';
import { requireJsonContentType } from './json-content-type.js';
import { sendProblem } from './respond.js';
import type { HttpContext } from './route.js';
import type { Router } from './router.js';
import { sendResult } from './send-result.js';

/** Routes one request and sends what its route returns; any failure becomes an Error body, never a crash. */
export async function handleRequest<C extends HttpContext>(
  router: Router<C>,
  app: C,
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
    const { route, params } = router.match(req.method ?? 'GET', url.pathname);
    if (!route.form) requireJsonContentType(req);
    if (route.auth === 'worker') {
      const worker = app.workerAuth.authenticate(req);
      sendResult(req, res, await route.handle({ req, url, params, app, caller: { uid: `worker:${worker.name}` }, worker }));
      return;
    }
    const runToken = route.auth ? await runTokenOf(app, req, route.runToken === true) : undefined;
    if (runToken) {
      sendResult(req, res, await route.handle({ req, url, params, app, caller: runToken.creator, runToken }));
      return;
    }
    const caller = route.auth ? app.auth.authenticate(req) : { uid: 'anonymous' };
    sendResult(req, res, await route.handle({ req, url, params, app, caller }));
  } catch (error) {
    const known =
      error instanceof ApiProblem ? error : error instanceof DomainError ? domainProblem(error) : app.storeOutage.problemFor(error);
    if (known) {
      sendProblem(res, known, instance);
      return;
    }
    // Logged once, with the trace id the caller gets, whether or not the caller is still
    // there (a request whose body was read reports `destroyed` on Node 20: it is not gone).
    const problem = new ApiProblem('internal_error', 'The server failed to answer; try again, or report the trace id.');
    const cause = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`Internal error on ${req.method} ${instance} (trace id ${problem.traceId}): ${cause}`);
    sendProblem(res, problem, instance);
  }
}

/**
 * The run token a request carries, if its credential is one: refused (401) when no run this
 * server executes holds it, and (403) on a route outside every run token's scope. Any other
 * credential goes on to the API key's check.
 */
async function runTokenOf(app: HttpContext, req: IncomingMessage, accepted: boolean): Promise<RunTokenGrant | undefined> {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  // A configured API key that happens to start like a run token stays an API key.
  if (!match || !isRunToken(match[1]!) || app.auth.keyPrincipal(req) !== undefined) return undefined;
  const grant = await app.runTokens.grantOf(match[1]!);
  if (!grant) {
    throw new ApiProblem('authentication_required', 'The run token is not valid: its run has ended, or this server did not issue it.', {
      headers: { 'www-authenticate': 'Bearer' },
      retryable: false,
    });
  }
  if (!accepted) {
    throw new ApiProblem(
      'not_authorized',
      'A run token opens only its run-scoped endpoints (create a child run, read runs of its family, send and read messages, poll events, cancel its children); use an API key for this one.',
      { retryable: false },
    );
  }
  return grant;
}
