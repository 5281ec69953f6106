import { lookup } from 'node:dns/promises';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { request, createServer, type IncomingMessage, type Server } from 'node:http';
import { isIP, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CONNECT_TIMEOUT_MS = 10_000;
const LOOKUP_TIMEOUT_MS = 5000;

/** Addresses a name must not resolve to unless the allow-list names the address itself: loopback, unspecified, link-local. */
function internal(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return /^(127\.|0\.|169\.254\.)/.test(v4);
  const lower = address.toLowerCase();
  return lower === '::1' || lower === '::' || lower.startsWith('fe80:');
}

/** A host as requested, compared with the entries: no brackets, lower case, no final dot. */
function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
}

/** `host` or `host:port` of an allow-list entry. */
function entry(text: string): { host: string; port: number | undefined } {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(text)!;
  return { host: m[1]!.replace(/^\[|\]$/g, '').toLowerCase(), port: m[2] ? Number(m[2]) : undefined };
}

export class HostAllowList {
  readonly #entries: { host: string; port: number | undefined }[];
  readonly #endpoints: { host: string; port: number | undefined }[];

  /** `endpoints`: `host:port` of a harness's model endpoint as the operator configured it, reached whatever it resolves to. */
  constructor(hosts: readonly string[], endpoints: readonly string[] = []) {
    this.#entries = hosts.map(entry);
    this.#endpoints = endpoints.map(entry).filter((e) => e.port !== undefined);
  }

  /** The entry `host:port` matches (a `*.` entry matches subdomains), if any. */
  match(host: string, port: number): { host: string; port: number | undefined } | undefined {
    const name = bare(host);
    return this.#entries.find(
      (e) => (e.port === undefined || e.port === port) && (e.host === name || (e.host.startsWith('*.') && name.endsWith(e.host.slice(1)))),
    );
  }

  /**
   * The address to connect to, or why not: the host must be listed, and what it resolves to
   * is checked again (a listed name that resolves to loopback is refused, unless the list
   * names that address itself), so DNS cannot turn an allowed name into the server's port.
   * A model endpoint the operator configured is the one exception, by its exact host and
   * port: its name is what is connected to, wherever it points (`localhost:8080`).
   */
  async resolve(host: string, port: number): Promise<{ address: string } | { refused: string }> {
    const name = bare(host);
    // The operator's model endpoint, at exactly its host and port: reached by its name, as the CLI would bare (loopback included).
    if (this.#endpoints.some((e) => e.host === name && e.port === port)) return { address: name };
    const matched = this.match(host, port);
    if (!matched) return { refused: `${host}:${port} is not in the allow-list` };
    const literal = isIP(matched.host) !== 0;
    let address: string;
    try {
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS).unref());
      address = (await Promise.race([lookup(host.replace(/^\[|\]$/g, '')), timeout])).address;
    } catch {
      return { refused: `${host} does not resolve` };
    }
    if (internal(address) && !(literal && matched.host === address)) return { refused: `${host} resolves to ${address}, an internal address` };
    return { address };
  }
}

function refuse(socket: Socket, why: string): void {
  if (socket.writable) socket.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nagent-runs proxy: ${why}\n`);
  else socket.destroy();
}

/**
 * The filtering proxy sandboxed agents under an allow-list reach through a Unix socket bound
 * into their sandbox (their network namespace has no other way out): HTTP CONNECT for TLS
 * and anything else, and plain HTTP requests in absolute form, to listed hosts only.
 */
export class FilteringProxy {
  readonly socketPath: string;
  readonly #server: Server;
  readonly #dir: string;

  constructor(hosts: readonly string[], endpoints: readonly string[] = []) {
    const allow = new HostAllowList(hosts, endpoints);
    this.#dir = mkdtempSync(join(tmpdir(), 'agent-runs-proxy-'));
    chmodSync(this.#dir, 0o711);
    this.socketPath = join(this.#dir, 'proxy.sock');
    this.#server = createServer((req, res) => {
      void this.#forward(allow, req, res);
    });
    this.#server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
      void this.#tunnel(allow, req, client, head);
    });
    this.#server.on('clientError', (_e, socket: Socket) => socket.destroy());
    // Bound at once (a Unix socket needs no lookup): the file exists when the constructor returns.
    this.#server.listen(this.socketPath);
    this.#server.unref();
    // The agent user connects to it; the directory above is not listable.
    chmodSync(this.socketPath, 0o666);
  }

  async #tunnel(allow: HostAllowList, req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on('error', () => {});
    const target = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(req.url ?? '');
    if (!target) return refuse(client, 'CONNECT wants host:port');
    const port = Number(target[2]);
    const resolved = await allow.resolve(target[1]!, port);
    if ('refused' in resolved) return refuse(client, resolved.refused);
    const upstream = connect({ host: resolved.address, port, timeout: CONNECT_TIMEOUT_MS });
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.once('timeout', () => upstream.destroy(new Error('timeout')));
    upstream.once('error', () => refuse(client, `cannot reach ${req.url}`));
    client.once('close', () => upstream.destroy());
  }

  async #forward(allow: HostAllowList, req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('agent-runs proxy: a proxied request names an absolute http:// URL\n');
      return;
    }
    const port = Number(url.port || 80);
    const resolved = url.protocol === 'http:' ? await allow.resolve(url.hostname, port) : { refused: `${url.protocol} is not proxied (use CONNECT)` };
    if ('refused' in resolved) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`agent-runs proxy: ${resolved.refused}\n`);
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = request(
      { host: resolved.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers, timeout: CONNECT_TIMEOUT_MS, setHost: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('timeout', () => upstream.destroy(new Error('timeout')));
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`agent-runs proxy: cannot reach ${url.host}\n`);
    });
    req.pipe(upstream);
  }

  close(): void {
    this.#server.close();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
