import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

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

/** `localhost:3000`, `127.0.0.1:3000` and `[::1]:3000`, plus the bound host, for a port. */
export function loopbackHosts(host: string, port: number): string[] {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', host.includes(':') && !host.startsWith('[') ? `[${host}]` : host]);
  return [...names].map((name) => `${name}:${port}`.toLowerCase());
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * DNS-rebinding protection and the bearer token. A web page on another origin that points
 * a name at 127.0.0.1 sends its own Host and Origin, so both must name this server.
 */
export function checkRequest(req: IncomingMessage, options: GuardOptions): Rejection | undefined {
  const host = req.headers.host?.toLowerCase();
  if (!host || !options.allowedHosts.includes(host)) {
    return { status: 403, message: `Host "${req.headers.host ?? ''}" is not allowed (allowed: ${options.allowedHosts.join(', ')}).` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).host.toLowerCase();
    } catch {
      originHost = undefined;
    }
    const ok = options.allowedOrigins.includes(origin) || (originHost !== undefined && options.allowedHosts.includes(originHost));
    if (!ok) return { status: 403, message: `Origin "${origin}" is not allowed.` };
  }
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
