import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { AgentRunsClient } from '@agent-runs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessHttp, type InProcessHttp } from '../support/mcp-harness.js';

let served: InProcessHttp;

beforeAll(async () => {
  served = await startInProcessHttp({ maxClientStreams: 3, maxSessionStreams: 2 });
});

afterAll(async () => {
  await served?.close();
});

interface Opened {
  status: number;
  headers: IncomingMessage['headers'];
  req: ClientRequest;
  /** The body once it ends (an answer, not a stream). */
  text(): Promise<string>;
}

/** One request from `from` (any of 127.0.0.0/8 is this machine), resolved at its response's headers. */
function send(method: string, body: object | undefined, headers: Record<string, string>, from = '127.0.0.1'): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = request(served.mcp.url, { method, headers: { accept: 'application/json, text/event-stream', ...headers }, localAddress: from }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      const ended = new Promise<string>((done) => {
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(text));
        res.on('close', () => done(text));
      });
      resolve({ status: res.statusCode ?? 0, headers: res.headers, req, text: () => ended });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** A 2026-07-28 subscriptions/listen stream, held open until its request is destroyed. */
const listen = (from?: string) =>
  send(
    'POST',
    { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: META } },
    { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
    from,
  );

const initialize = (from?: string) =>
  send(
    'POST',
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
    { 'content-type': 'application/json' },
    from,
  );

const errorOf = async (opened: Opened) => (JSON.parse(await opened.text()) as { error: { message: string } }).error.message;

describe('MCP over HTTP: open streams are capped', () => {
  it('per client address: past --max-client-streams a listen stream or an initialize gets 429, other addresses do not, and a closed stream frees its place', async () => {
    const held = [await listen(), await listen(), await listen()];
    try {
      expect(held.map((s) => [s.status, s.headers['content-type']])).toEqual(Array(3).fill([200, 'text/event-stream']));
      const over = await listen();
      expect([over.status, over.headers['retry-after']]).toEqual([429, '5']);
      expect(await errorOf(over)).toBe(
        'Too many open requests from this client: this server holds at most 3 at once for one address (--max-client-streams). ' +
          'Close a listen stream you no longer read, or try again once one ends.',
      );
      expect((await initialize()).status).toBe(429);
      const elsewhere = await listen('127.0.0.2');
      expect(elsewhere.status).toBe(200);
      elsewhere.req.destroy();
      held.shift()!.req.destroy();
      let again: Opened | undefined;
      for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
        again = await listen();
        if (again.status === 200) break;
      }
      expect(again?.status).toBe(200);
      held.push(again!);
    } finally {
      for (const s of held) s.req.destroy();
    }
  });

  it('per 2025-11-25 session: past --max-session-streams a request in it gets 429 while its calls run', async () => {
    const api = new AgentRunsClient({ baseURL: served.api.baseURL, apiKey: served.api.apiKey, maxRetries: 0 });
    const run = await api.runs.create({ prompt: 'hold [simulate hang]' });
    // From an address of its own, so that only the session's cap applies.
    const from = '127.0.0.3';
    const init = await initialize(from);
    const sessionId = init.headers['mcp-session-id'] as string;
    await init.text();
    const inSession = { 'content-type': 'application/json', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    expect((await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, inSession, from)).status).toBe(202);
    const wait = (id: number) => send('POST', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait_for_run', arguments: { run_id: run.run_id, timeout: '1m' } } }, inSession, from);
    const waits = [await wait(2), await wait(3)];
    try {
      expect(waits.map((w) => w.status)).toEqual([200, 200]);
      const over = await send('POST', { jsonrpc: '2.0', id: 4, method: 'tools/list' }, inSession, from);
      expect(over.status).toBe(429);
      expect(await errorOf(over)).toBe('Too many open requests in this session: at most 2 at once (--max-session-streams). Try again once one ends.');
    } finally {
      for (const w of waits) w.req.destroy();
      await api.runs.cancel(run.run_id).catch(() => {});
      await api.close();
    }
  });
});
