import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TYPE_BASE } from '@agent-runs/core/contract';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ maxBodyBytes: 2048 });
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };
const post = (body: string, headers: Record<string, string> = json) => ({ method: 'POST', headers, body });

// [what, path, request, status, words the detail must contain]
const table: [string, string, RequestInit & { key?: string | null }, number, string][] = [
  ['malformed JSON', '/api/v1/agent/run', post('{"prompt": '), 400, 'not valid JSON'],
  ['an empty body', '/api/v1/agent/run', post(''), 400, 'body'],
  ['a JSON array', '/api/v1/agent/run', post('[1,2]'), 400, 'body'],
  ['a prompt of the wrong type', '/api/v1/agent/run', post('{"prompt": 42}'), 400, 'prompt'],
  ['a missing prompt', '/api/v1/agent/run', post('{"title": "t"}'), 400, 'prompt'],
  ['a config of the wrong type', '/api/v1/agent/run', post('{"prompt": "p", "config": "x"}'), 400, 'config'],
  ['an idle timeout out of range', '/api/v1/agent/run', post('{"prompt":"p","config":{"idle_timeout_minutes":99}}'), 400, 'config.idle_timeout_minutes'],
  ['an MCP server with two transports', '/api/v1/agent/run', post('{"prompt":"p","config":{"mcp_servers":{"gh":{"command":"x","url":"https://a.b"}}}}'), 400, 'config.mcp_servers.gh'],
  ['a body over the limit', '/api/v1/agent/run', post(JSON.stringify({ prompt: 'x'.repeat(4000) })), 413, '2048 bytes'],
  ['a body that is not JSON', '/api/v1/agent/run', post('prompt=x', { 'content-type': 'text/plain' }), 415, 'application/json'],
  ['an empty Idempotency-Key', '/api/v1/agent/run', post('{"prompt":"p"}', { ...json, 'idempotency-key': ' ' }), 400, 'Idempotency-Key'],
  ['an unknown run id', '/api/v1/agent/runs/nope', {}, 404, 'nope'],
  ['cancel of an unknown run', '/api/v1/agent/runs/nope/cancel', { method: 'POST' }, 404, 'nope'],
  ['a badly encoded run id', '/api/v1/agent/runs/%E0%A4%A', {}, 400, 'runId'],
  ['a bad cursor', '/api/v1/agent/runs?cursor=not-a-cursor', {}, 400, 'cursor'],
  ['a cursor of valid base64 but wrong content', `/api/v1/agent/runs?cursor=${Buffer.from('{"a":1}').toString('base64url')}`, {}, 400, 'cursor'],
  ['an unknown state', '/api/v1/agent/runs?state=DONE', {}, 400, 'state'],
  ['an unknown sort', '/api/v1/agent/runs?sort_by=size', {}, 400, 'sort_by'],
  ['an unknown sort order', '/api/v1/agent/runs?sort_order=up', {}, 400, 'sort_order'],
  ['an unknown source', '/api/v1/agent/runs?source=FAX', {}, 400, 'source'],
  ['a limit of 0', '/api/v1/agent/runs?limit=0', {}, 400, 'limit'],
  ['a limit over 500', '/api/v1/agent/runs?limit=501', {}, 400, 'limit'],
  ['a limit that is not a number', '/api/v1/agent/runs?limit=ten', {}, 400, 'limit'],
  ['a bad timestamp', '/api/v1/agent/runs?created_after=yesterday', {}, 400, 'created_after'],
  ['an unknown parameter', '/api/v1/agent/runs?colour=red', {}, 400, 'colour'],
  ['a repeated single-valued parameter', '/api/v1/agent/runs?limit=1&limit=2', {}, 400, 'limit'],
  ['no API key', '/api/v1/agent/runs', { key: null }, 401, 'Bearer'],
  ['a wrong API key', '/api/v1/agent/runs', { key: 'wrong-key-0000' }, 401, 'not valid'],
  ['an unknown path', '/api/v1/agent/nothing', {}, 404, '/api/v1/agent/nothing'],
  ['a wrong method', '/api/v1/agent/runs/x/cancel', { method: 'DELETE' }, 405, 'POST'],
];

describe('bad input', () => {
  it.each(table)('answers %s (%s) with a problem that names it', async (_what, path, init, status, words) => {
    const res = await t.raw(path, init);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status, instance: path.split('?')[0] });
    expect(res.body.type.startsWith(ERROR_TYPE_BASE)).toBe(true);
    expect(res.body.error).toContain(res.body.title);
    expect(res.body.detail).toContain(words);
    expect(res.body.detail).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('still answers after all of them', async () => {
    const res = await t.raw('/healthz');
    expect(res.status).toBe(200);
  });

  it('survives a caller that hangs up in the middle of a body', async () => {
    const { connect } = await import('node:net');
    const url = new URL(t.server.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`POST /api/v1/agent/run HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${t.server.apiKey}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"prompt":`);
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
    });
    expect((await t.raw('/healthz')).status).toBe(200);
  });

  it('survives a request line that is not HTTP', async () => {
    const { connect } = await import('node:net');
    const url = new URL(t.server.url);
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('NONSENSE\r\n\r\n'));
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('close', () => resolve(data));
    });
    expect(reply).toContain('400');
    expect((await t.raw('/healthz')).status).toBe(200);
  });
});
