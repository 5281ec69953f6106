import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilteringProxy } from '../../src/executors/sandbox/filtering-proxy.js';

/**
 * Issue 45, item 12: a harness whose model URL names `localhost` failed under `--network
 * none` or an allow-list, since the filtering proxy refuses a name that resolves to
 * loopback. The operator's model endpoint is let through at exactly its host and port;
 * loopback in general stays refused.
 */
let model: Server;
let other: Server;
const portOf = (server: Server) => (server.address() as AddressInfo).port;
async function listen(name: string): Promise<Server> {
  const server = createServer((_req, res) => res.end(`${name} answered`)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return server;
}
beforeAll(async () => {
  model = await listen('model');
  other = await listen('other');
});
afterAll(() => {
  model?.close();
  other?.close();
});

/** A plain HTTP request for `url` through the proxy: its status and body. */
function proxied(proxy: FilteringProxy, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: proxy.socketPath, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (text: string) => (body += text));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT tunnel to `target` through the proxy, then a GET through it: the CONNECT's status and, when it opened, the answer. */
function tunnelled(proxy: FilteringProxy, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: proxy.socketPath, method: 'CONNECT', path: target });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return resolve({ status: res.statusCode ?? 0, body: '' });
      }
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve({ status: 200, body: text.slice(text.indexOf('\r\n\r\n') + 4) }));
      socket.write(`GET / HTTP/1.1\r\nhost: ${target}\r\nconnection: close\r\n\r\n`);
    });
    req.on('response', (res) => resolve({ status: res.statusCode ?? 0, body: '' }));
    req.on('error', reject);
    req.end();
  });
}

describe("a harness's model endpoint on localhost, as the operator configured it (issue 45.12)", () => {
  it('is reached through the proxy, by plain HTTP and CONNECT, at exactly that host and port', async () => {
    const endpoint = `localhost:${portOf(model)}`;
    // What `none` becomes for a harness whose ANTHROPIC_BASE_URL is http://localhost:<port> (harness-state.test.ts).
    const proxy = new FilteringProxy([endpoint], [endpoint]);
    try {
      expect(await proxied(proxy, `http://${endpoint}/v1/messages`)).toEqual({ status: 200, body: 'model answered' });
      expect(await tunnelled(proxy, endpoint)).toEqual({ status: 200, body: 'model answered' });
      // Another loopback port under the same name, and the same port by another name, stay refused.
      expect((await proxied(proxy, `http://localhost:${portOf(other)}/`)).status).toBe(403);
      expect((await tunnelled(proxy, `localhost:${portOf(other)}`)).status).toBe(403);
      expect((await proxied(proxy, `http://127.0.0.1:${portOf(model)}/`)).status).toBe(403);
      expect((await tunnelled(proxy, `127.0.0.1:${portOf(model)}`)).status).toBe(403);
    } finally {
      proxy.close();
    }
  });

  it('is the only exception: the same host:port in an allow-list that is not a model endpoint is refused as resolving to loopback', async () => {
    const endpoint = `localhost:${portOf(model)}`;
    const proxy = new FilteringProxy(['registry.example.invalid', endpoint]);
    try {
      const answer = await proxied(proxy, `http://${endpoint}/`);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatch(/^agent-runs proxy: localhost resolves to (127\.0\.0\.1|::1), an internal address\n$/);
    } finally {
      proxy.close();
    }
  });
});
