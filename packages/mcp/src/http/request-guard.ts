import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { checkRequestOrigin } from '@agent-runs/core/contract';

export interface GuardOptions {
  /** Host header values accepted (`host:port`), compared case-insensitively. */
  allowedHosts: string[];
  /** Origin header values accepted besides `http://<allowed host>`. */
  allowedOrigins: string[];
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  authToken: string | undefined;
}

export interface Rejection {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * DNS-rebinding protection (shared with the local Runs API, in core) and the bearer token.
 */
export function checkRequest(req: IncomingMessage, options: GuardOptions): Rejection | undefined {
  const rejected = checkRequestOrigin(req.headers, options);
  if (rejected) return rejected;
  if (options.authToken) {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match || !sameSecret(match[1]!.trim(), options.authToken)) {
      return {
        status: 401,
        message: 'Missing or wrong bearer token: send Authorization: Bearer <token>.',
        headers: { 'www-authenticate': 'Bearer' },
      };
    }
  }
  return undefined;
}
