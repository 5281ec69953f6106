/**
 * The DNS-rebinding and cross-site defence of a server on this machine (the local Runs API
 * and the MCP HTTP server share it). A web page on another origin can make the browser send
 * requests to 127.0.0.1, directly or by pointing a name of its own at it; such a request
 * carries the page's Host name or the page's Origin, so both must name this server.
 */

export interface OriginGuardOptions {
  /** `Host` header values accepted (`name:port` or a bare `name`), compared case-insensitively. */
  allowedHosts: readonly string[];
  /** `Origin` values accepted besides `<scheme>://<allowed host>` (e.g. `https://app.example`). */
  allowedOrigins?: readonly string[] | undefined;
}

/** The request headers the guard reads (node's IncomingHttpHeaders fits). */
export interface OriginGuardHeaders {
  host?: string | undefined;
  origin?: string | undefined;
}

export interface OriginRejection {
  status: 403;
  message: string;
}

const bracketed = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** `localhost:<port>`, `127.0.0.1:<port>` and `[::1]:<port>`, plus the bound host, for a port. */
export function loopbackHosts(host: string, port: number): string[] {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', bracketed(host)]);
  return [...names].map((name) => `${name}:${port}`.toLowerCase());
}

/**
 * The `Host` values a name given by an operator stands for: `name:port` as given; a bare
 * name with the server's port, or without one (a proxy on the default port).
 */
export function hostsForName(name: string, port: number): string[] {
  const lower = name.trim().toLowerCase();
  // `name:port` and `[v6]:port` already say their port; a bare IPv6 address needs brackets.
  if (/^(\[[^\]]+\]|[^:[\]]+):\d+$/.test(lower)) return [lower];
  const host = bracketed(lower);
  return [`${host}:${port}`, host];
}

/** Undefined when the request may go on; else a 403 naming what was refused and what is allowed. */
export function checkRequestOrigin(headers: OriginGuardHeaders, options: OriginGuardOptions): OriginRejection | undefined {
  const host = headers.host?.toLowerCase();
  if (!host || !options.allowedHosts.includes(host)) {
    return {
      status: 403,
      message: `Host "${headers.host ?? ''}" is not allowed: not a name this server answers to (allowed: ${options.allowedHosts.join(', ')}).`,
    };
  }
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    originHost = undefined; // `null` (sandboxed frames, files) and garbage are not this server.
  }
  const ok = (options.allowedOrigins ?? []).includes(origin) || (originHost !== undefined && options.allowedHosts.includes(originHost));
  if (!ok) return { status: 403, message: `Origin "${origin}" is not allowed: not this server's own origin, and cross-site requests are refused.` };
  return undefined;
}
