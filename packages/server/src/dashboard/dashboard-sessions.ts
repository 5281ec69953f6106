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
  /** At most this many sessions are kept; the oldest go first. */
  max: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000, max: 10_000 };

/**
 * The dashboard's sign-ins, kept in memory: a restart signs everyone out, and sign out
 * forgets the session at once (a stateless cookie could not be revoked).
 */
export class DashboardSessions {
  private readonly sessions = new Map<string, DashboardSession>();

  constructor(
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  open(principal: string): DashboardSession {
    if (this.sessions.size >= this.limits.max) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
    const at = this.now();
    const session = { id: randomBytes(32).toString('base64url'), principal, csrf: randomBytes(32).toString('base64url'), createdAt: at, lastSeenAt: at };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session of a cookie value, touched; undefined when unknown or expired. */
  find(id: string | undefined): DashboardSession | undefined {
    if (!id) return undefined;
    const session = this.sessions.get(id);
    if (!session) return undefined;
    const at = this.now();
    if (at - session.lastSeenAt > this.limits.idleMs || at - session.createdAt > this.limits.absoluteMs) {
      this.sessions.delete(id);
      return undefined;
    }
    session.lastSeenAt = at;
    return session;
  }

  close(id: string): void {
    this.sessions.delete(id);
  }
}

/** Whether a posted CSRF token is the session's, compared in constant time. */
export function csrfMatches(session: DashboardSession, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
