import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RunCreatorInfo } from '@agent-runs/core/contract';
import { ApiProblem } from './api-problem.js';

export interface ApiKey {
  key: string;
  /** Who holds the key; becomes the `creator` of the runs it creates. */
  principal: string;
}

/** How many spellings of valid Authorization headers are remembered. */
const VALID_HEADERS_KEPT = 256;

// One-shot hashing: a fifth of the time of a createHash object per request.
const digest = (text: string) => hash('sha256', text, 'hex');

/**
 * Bearer authentication against configured keys. A key is found by the SHA-256 digest of
 * what was sent, so the lookup's time says nothing about how close a wrong key came.
 */
export class ApiKeyAuth {
  /** Principal by the hex digest of its key; a key listed twice keeps its first principal. */
  private readonly principals = new Map<string, string>();
  /** Principal by an Authorization header already found valid. */
  private readonly validHeaders = new Map<string, string>();

  constructor(
    keys: readonly ApiKey[],
    private readonly required: boolean,
  ) {
    for (const k of keys) {
      const keyHash = digest(k.key);
      if (!this.principals.has(keyHash)) this.principals.set(keyHash, k.principal);
    }
  }

  /** The principal of the request's valid Bearer key, if it has one (auth off or not). */
  keyPrincipal(req: IncomingMessage): string | undefined {
    const header = req.headers.authorization;
    if (typeof header !== 'string') return undefined;
    // A header that carried a valid key before: no parsing and hashing again for each request.
    const known = this.validHeaders.get(header);
    if (known !== undefined) return known;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) return undefined;
    const principal = this.principals.get(digest(match[1]!));
    // Only headers of valid keys are kept (a wrong key is hashed every time), a bounded few.
    if (principal !== undefined && this.validHeaders.size < VALID_HEADERS_KEPT) this.validHeaders.set(header, principal);
    return principal;
  }

  /** The principal a key typed into the dashboard's sign-in form opens; any key is `local` when auth is off. */
  principalOfKey(key: string): string | undefined {
    return this.principals.get(digest(key)) ?? (this.required ? undefined : 'local');
  }

  /** The caller's identity; throws a 401 problem when the key is missing or unknown. */
  authenticate(req: IncomingMessage): RunCreatorInfo {
    const header = req.headers.authorization;
    const principal = this.keyPrincipal(req);
    if (principal !== undefined) return creatorFor(principal);
    if (!this.required) return creatorFor('local');
    throw new ApiProblem(
      'authentication_required',
      header
        ? 'The API key is not valid for this server: send Authorization: Bearer <one of its keys>.'
        : 'Send Authorization: Bearer <api key>.',
      { headers: { 'www-authenticate': 'Bearer' }, retryable: false },
    );
  }
}

/** The caller a principal is, as routes and services name it. */
export function creatorFor(principal: string): RunCreatorInfo {
  return { type: 'user', uid: principal, display_name: principal };
}
