import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyOptions {
  /** Runs before each request is passed on (to change the server's state mid-walk, say). */
  beforeForward?: (req: IncomingMessage) => Promise<void>;
  /** Answer 404 (as a server without the stream would) for paths ending in `/events`. */
  refuseEvents?: boolean;
  /** Cut each event stream after this many bytes of its body have gone through. */
  cutEventsAfterBytes?: number;
}

export interface ForwardingProxy {
  baseURL: string;
  /** Paths requested, in order. */
  requests: string[];
  /** Every User-Agent seen. */
  userAgents: Set<string>;
  setOptions(options: ProxyOptions): void;
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy in front of a real server: it records what passes, and can act
 * before a request goes on, refuse the event stream or cut it.
 */
export async function startForwardingProxy(target: string, initial: ProxyOptions = {}): Promise<ForwardingProxy> {
  const upstream = new URL(target);
  let options: ProxyOptions = initial;
  const requests: string[] = [];
  const userAgents = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    requests.push(req.url ?? '');
    userAgents.add(req.headers['user-agent'] ?? '');
    await options.beforeForward?.(req);
    const isEvents = /\/events(\?|$)/.test(req.url ?? '');
    if (isEvents && options.refuseEvents) {
      const body = JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: `No endpoint at GET ${req.url}.` });
      res.writeHead(404, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const forward = request(
      // The upstream Host, as a reverse proxy sends it (the server answers only names it knows).
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } },
      (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        let passed = 0;
        answer.on('data', (chunk: Buffer) => {
          if (res.destroyed || (options.cutEventsAfterBytes !== undefined && isEvents && passed >= options.cutEventsAfterBytes)) return;
          const limit = isEvents ? options.cutEventsAfterBytes : undefined;
          if (limit !== undefined && passed + chunk.length > limit) {
            answer.destroy();
            // Cut the connection once the part before the limit has gone out (mid-event, as a network drop would).
            res.write(chunk.subarray(0, Math.max(0, limit - passed)), () => res.socket?.destroy());
            passed = limit;
            return;
          }
          passed += chunk.length;
          res.write(chunk);
        });
        answer.on('end', () => {
          if (!res.destroyed) res.end();
        });
        answer.on('error', () => res.destroy());
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
    res.on('close', () => forward.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${upstream.pathname}`,
    requests,
    userAgents,
    setOptions: (next) => void (options = next),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
