import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A server as an older version answers: a loopback proxy to `target` (an origin, no path)
 * that answers 404 to the worker endpoints that version did not have (`missing`: the last
 * segment of their path) and passes every other request through, long polls included.
 */
export async function olderServer(target: string, missing: readonly string[]): Promise<{ url: string; close(): Promise<void> }> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    const last = (req.url ?? '').split('?')[0]!.split('/').at(-1) ?? '';
    if (missing.includes(last)) {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Not Found', status: 404 }));
      return;
    }
    // As a reverse proxy sends it: the server answers only the names it is reached by.
    const headers = { ...req.headers, host: to.host };
    const forward = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
