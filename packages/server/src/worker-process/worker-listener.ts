import { createServer, type Server } from 'node:http';
import type { WorkerMetrics } from './worker-metrics.js';
import { listenOn } from './listen-on.js';

/**
 * `--listen`: what a supervisor asks of the worker. `GET /readyz` is 200 once the server
 * answered it and it is not draining, else 503; `GET /metrics` is Prometheus's text.
 * Nothing else, and nothing that takes input.
 */
export async function listenForProbes(address: { host: string; port: number }, ready: () => boolean, metrics: WorkerMetrics): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
    } else if (path === '/readyz') {
      const ok = ready();
      res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(ok ? 'ready\n' : 'not ready\n');
    } else if (path === '/metrics') {
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(text),
        () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
      );
    } else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  const port = await listenOn(server, address);
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return { server, url: `http://${host}:${port}` };
}
