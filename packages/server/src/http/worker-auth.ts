import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiProblem } from './api-problem.js';

/** A worker token of the configuration, as authentication knows it. */
export interface WorkerTokenGrant {
  /** The token's name in the configuration file (never its value). */
  name: string;
  /** The worker ids a worker holding it may serve. */
  workerHosts: readonly string[];
}

const digest = (text: string) => hash('sha256', text, 'hex');

/**
 * Bearer authentication of self-hosted workers, apart from API keys: a worker token opens
 * the worker endpoints only, and an API key never opens them. As with API keys, a token is
 * found by the digest of what was sent, so the lookup's time says nothing of a wrong one.
 */
export class WorkerAuth {
  private readonly grants = new Map<string, WorkerTokenGrant>();

  constructor(tokens: readonly (WorkerTokenGrant & { token: string })[]) {
    for (const t of tokens) {
      const key = digest(t.token);
      if (!this.grants.has(key)) this.grants.set(key, { name: t.name, workerHosts: [...t.workerHosts] });
    }
  }

  /** Every worker id some token may serve: the values a run's worker_host may take. */
  knownHosts(): string[] {
    return [...new Set([...this.grants.values()].flatMap((g) => g.workerHosts))].sort();
  }

  /** The request's worker token; throws a 401 problem when it carries none this server knows. */
  authenticate(req: IncomingMessage): WorkerTokenGrant {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const grant = match ? this.grants.get(digest(match[1]!)) : undefined;
    if (grant) return grant;
    throw new ApiProblem(
      'authentication_required',
      header ? 'The worker token is not valid for this server: send Authorization: Bearer <a token of its workers: section>.' : 'Send Authorization: Bearer <worker token>.',
      { headers: { 'www-authenticate': 'Bearer' }, retryable: false },
    );
  }
}
