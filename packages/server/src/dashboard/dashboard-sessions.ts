import { randomBytes, timingSafeEqual } from 'node:crypto';

/** A signed-in browser: who it is, its CSRF token, and when it expires. */
export interface DashboardSession {
  id: string;
  principal: string;
  csrf: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface SessionLimits {
  /** Signed out after this long without a request. */
  idleMs: number;
  /** Signed out this long after signing in, however active. */
  absoluteMs: number;
  /** At most this many sessions are kept for the whole server; past it a sign-in is refused. */
  max: number;
  /** At most this many for one principal; its own oldest goes first, never another's. */
  perPrincipal: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000, max: 10_000, perPrincipal: 50 };

/**
 * The dashboard's sign-ins, kept in memory: a restart signs everyone out, and sign out
 * forgets the session at once (a stateless cookie could not be revoked). One principal's
 * sign-ins only ever end that principal's sessions.
 */
export class DashboardSessions {
  private readonly sessions = new Map<string, DashboardSession>();
  /** Each principal's session ids, oldest first. */
  private readonly byPrincipal = new Map<string, Set<string>>();

  constructor(
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new session, or undefined when the server holds its most and none of them has expired. */
  open(principal: string): DashboardSession | undefined {
    const own = this.byPrincipal.get(principal);
    if (own && own.size >= this.limits.perPrincipal) this.close(own.values().next().value!);
    else if (this.sessions.size >= this.limits.max) {
      this.dropExpired();
      if (this.sessions.size >= this.limits.max) return undefined;
    }
    const at = this.now();
    const session = { id: randomBytes(32).toString('base64url'), principal, csrf: randomBytes(32).toString('base64url'), createdAt: at, lastSeenAt: at };
    this.sessions.set(session.id, session);
    this.byPrincipal.set(principal, (this.byPrincipal.get(principal) ?? new Set()).add(session.id));
    return session;
  }

  /** The live session of a cookie value, touched; undefined when unknown or expired. */
  find(id: string | undefined): DashboardSession | undefined {
    if (!id) return undefined;
    const session = this.sessions.get(id);
    if (!session) return undefined;
    const at = this.now();
    if (this.expired(session, at)) {
      this.close(id);
      return undefined;
    }
    session.lastSeenAt = at;
    return session;
  }

  close(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    const own = this.byPrincipal.get(session.principal);
    own?.delete(id);
    if (own?.size === 0) this.byPrincipal.delete(session.principal);
  }

  private expired(session: DashboardSession, at: number): boolean {
    return at - session.lastSeenAt > this.limits.idleMs || at - session.createdAt > this.limits.absoluteMs;
  }

  private dropExpired(): void {
    const at = this.now();
    for (const session of this.sessions.values()) if (this.expired(session, at)) this.close(session.id);
  }
}

/** Whether a posted CSRF token is the session's, compared in constant time. */
export function csrfMatches(session: DashboardSession, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
