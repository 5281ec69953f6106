import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RunCreatorInfo } from '@agent-runs/core/contract';
import { ApiProblem } from './api-problem.js';

export interface ApiKey {
  key: string;
  /** Who holds the key; becomes the `creator` of the runs it creates. */
  principal: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Bearer authentication against configured keys; comparison takes the same time whichever key is close. */
export class ApiKeyAuth {
  private readonly keys: { hash: Buffer; principal: string }[];

  constructor(
    keys: readonly ApiKey[],
    private readonly required: boolean,
  ) {
    this.keys = keys.map((k) => ({ hash: digest(k.key), principal: k.principal }));
  }

  /** The principal of the request's valid Bearer key, if it has one (auth off or not). */
  keyPrincipal(req: IncomingMessage): string | undefined {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return undefined;
    const hash = digest(match[1]!);
    let principal: string | undefined;
    // Compare against every key so the time taken does not reveal which one matched.
    for (const key of this.keys) if (timingSafeEqual(hash, key.hash)) principal ??= key.principal;
    return principal;
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

function creatorFor(principal: string): RunCreatorInfo {
  return { type: 'user', uid: principal, display_name: principal };
}
