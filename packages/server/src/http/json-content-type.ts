import type { IncomingMessage } from 'node:http';
import { ApiProblem } from './api-problem.js';

/** Whether the request carries a body, judged from its headers before reading it. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Every body must be declared `application/json`. A web page can send `text/plain` or a form
 * to this server without the browser asking first; requiring JSON closes that door.
 */
export function requireJsonContentType(req: IncomingMessage): void {
  if (!hasBody(req)) return;
  const given = req.headers['content-type'];
  const media = (given ?? '').split(';')[0]!.trim().toLowerCase();
  if (media === 'application/json') return;
  req.resume(); // Drain what was sent so the connection can answer.
  throw new ApiProblem(
    'invalid_request',
    given === undefined
      ? 'Content-Type: missing; send the body as application/json.'
      : `Content-Type: must be application/json, got "${given}".`,
    { status: 415, retryable: false },
  );
}
