import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiProblem } from './api-problem.js';

/** How long a download link works unless the server is told otherwise. */
export const DEFAULT_LINK_TTL_MS = 15 * 60_000;

/**
 * Download links that need no API key: the path and an expiry, signed with a key that
 * lives only in this process (so links end with the server, and a restart ends them all).
 * A link opens only the one thing its path names, and only until it expires.
 */
export class SignedLinks {
  constructor(
    private readonly ttlMs: number = DEFAULT_LINK_TTL_MS,
    private readonly secret: Buffer = randomBytes(32),
    private readonly now: () => number = Date.now,
  ) {}

  /** `path?expires=...&signature=...` and when it stops working. */
  sign(path: string): { path: string; expiresAt: string } {
    const expires = Math.floor((this.now() + this.ttlMs) / 1000);
    return { path: `${path}?expires=${expires}&signature=${this.signature(path, expires)}`, expiresAt: new Date(expires * 1000).toISOString() };
  }

  /** Throws a 403 for a link that was altered or has expired; nothing is served then. */
  verify(path: string, query: URLSearchParams): void {
    const expires = Number(query.get('expires'));
    const given = Buffer.from(query.get('signature') ?? '', 'hex');
    const expected = Buffer.from(this.signature(path, expires), 'hex');
    if (!Number.isSafeInteger(expires) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ApiProblem('not_authorized', 'This download link is not valid (it was altered or made by another server); ask for the artifact again for a new link.');
    }
    if (expires * 1000 < this.now()) {
      throw new ApiProblem('not_authorized', 'This download link has expired; ask for the artifact again for a new link.');
    }
  }

  private signature(path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`).digest('hex');
  }
}
