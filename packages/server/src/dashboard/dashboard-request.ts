import type { IncomingMessage } from 'node:http';
import type { RunCreatorInfo } from '@agent-runs/core/contract';
import { ApiProblem } from '../http/api-problem.js';
import { creatorFor } from '../http/api-key-auth.js';
import { csrfMatches, type DashboardSession } from './dashboard-sessions.js';

export const COOKIE = 'agent_runs_session';
/** A form never needs more: prompts are the largest field. */
export const MAX_FORM_BYTES = 512 * 1024;

export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Whether the browser reached us over https (directly, or through a proxy that says so). */
export function isHttps(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true || req.headers['x-forwarded-proto'] === 'https';
}

export function sessionCookie(req: IncomingMessage, value: string, maxAgeSeconds: number): string {
  return `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${isHttps(req) ? '; Secure' : ''}`;
}

/** Who a signed-in browser is, as services name a caller. */
export function callerOf(session: DashboardSession): RunCreatorInfo {
  return creatorFor(session.principal);
}

/** Reads an urlencoded form body of at most MAX_FORM_BYTES. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const media = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (media !== 'application/x-www-form-urlencoded') {
    req.resume();
    throw new ApiProblem('invalid_request', 'Content-Type: a dashboard form is sent as application/x-www-form-urlencoded.', { status: 415, retryable: false });
  }
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(new ApiProblem('invalid_request', `The form is larger than ${MAX_FORM_BYTES} bytes.`, { status: 413, retryable: false }));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
    req.once('aborted', () => reject(new ApiProblem('invalid_request', 'The form ended before its end.')));
  });
  return new URLSearchParams(text);
}

/**
 * A state-changing post must come from a page of this server: its Origin names this host
 * (browsers send it on every form post), and the form carries the session's CSRF token.
 */
export function checkPost(req: IncomingMessage, form: URLSearchParams, session: DashboardSession | undefined): void {
  const origin = req.headers.origin;
  let originHost: string | undefined;
  try {
    originHost = origin ? new URL(origin).host.toLowerCase() : undefined;
  } catch {
    originHost = undefined;
  }
  if (!originHost || originHost !== req.headers.host?.toLowerCase()) {
    throw new ApiProblem('not_authorized', `Origin "${origin ?? ''}": a dashboard form is accepted only from this server's own pages.`, { status: 403, retryable: false });
  }
  if (session && !csrfMatches(session, form.get('csrf') ?? undefined)) {
    throw new ApiProblem('not_authorized', 'csrf: the form\'s token is missing or stale; reload the page and send it again.', { status: 403, retryable: false });
  }
}
