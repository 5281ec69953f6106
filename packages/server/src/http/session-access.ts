import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiProblem } from './api-problem.js';
import type { HttpContext } from './route.js';

/** The query parameter of a session link that carries its token. */
export const SESSION_TOKEN_PARAM = 'token';

const MEMO_LIMIT = 10_000;

/** Signs session ids: the token in a session link is unguessable without the server's secret. */
export class SessionTokens {
  /** Tokens already signed: a run is answered many times, and an HMAC costs more than the rest of a small answer. */
  private readonly signed = new Map<string, string>();

  constructor(private readonly secret: Buffer) {}

  token(sessionId: string): string {
    let token = this.signed.get(sessionId);
    if (token === undefined) {
      token = createHmac('sha256', this.secret).update(`session:${sessionId}`).digest('base64url');
      // Bounded: past the limit the memo starts over, so memory stays flat however many runs are read.
      if (this.signed.size >= MEMO_LIMIT) this.signed.clear();
      this.signed.set(sessionId, token);
    }
    return token;
  }

  matches(sessionId: string, given: string): boolean {
    const expected = Buffer.from(this.token(sessionId));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  /** `session_link` as the API returns it: the page's address with its token. */
  link(publicUrl: string, sessionId: string): string {
    return `${publicUrl}/sessions/${encodeURIComponent(sessionId)}?${SESSION_TOKEN_PARAM}=${this.token(sessionId)}`;
  }
}

/** What access to a session is checked against: its id, and whether a principal may read its run. */
export interface SessionAccessTarget {
  sessionId: string;
  mayRead(principal: string): boolean;
}

/**
 * Whether the caller may see anything of a run's session (its page, or a live stream of
 * it): the link's token, or an API key allowed to read the run. Throws a 403 otherwise,
 * before anything of the run is shown. Every route that shows a session checks this.
 */
export function checkSessionAccess(req: IncomingMessage, url: URL, session: SessionAccessTarget, app: HttpContext): void {
  const token = url.searchParams.get(SESSION_TOKEN_PARAM);
  if (token !== null && app.sessionTokens.matches(session.sessionId, token)) return;
  const principal = app.auth.keyPrincipal(req);
  if (principal !== undefined && session.mayRead(principal)) return;
  throw new ApiProblem(
    'not_authorized',
    token === null
      ? 'This session page needs the token in its link (the run\'s session_link), or an API key that can read the run.'
      : 'The token in this session link is not valid for this session; use the run\'s session_link as the API returns it.',
    { status: 403, retryable: false },
  );
}
