import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@agent-runs/server';
import { rawRequest } from '../support/raw-http.js';

let open: RunningServer;
let named: RunningServer;
const runCount = async (server: RunningServer) => {
  const res = await rawRequest(`${server.baseURL}/agent/runs?limit=500`, { headers: { authorization: `Bearer ${server.apiKey}` } });
  return (res.json as { runs: unknown[] }).runs.length;
};

beforeAll(async () => {
  open = await startServer({ storage: 'memory', noAuth: true, quiet: true, simulatedDurationMs: 50 });
  named = await startServer({
    storage: 'memory',
    quiet: true,
    simulatedDurationMs: 50,
    publicUrl: 'https://runs.example',
    allowedHosts: ['agents.internal'],
  });
});
afterAll(async () => {
  await open.close();
  await named.close();
});

const create = (server: RunningServer, headers: Record<string, string>, body = JSON.stringify({ prompt: 'from a web page' })) =>
  rawRequest(`${server.baseURL}/agent/run`, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, ...headers }, body });

describe('a web page cannot drive the local server', () => {
  it('refuses a create with no Content-Type (415) and makes no run', async () => {
    const res = await create(open, {});
    expect(res.status).toBe(415);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json.detail).toMatch(/Content-Type.*application\/json/);
    expect(await runCount(open)).toBe(0);
  });

  it('refuses text/plain; charset=json (415)', async () => {
    const res = await create(open, { 'content-type': 'text/plain; charset=json' });
    expect(res.status).toBe(415);
    expect(await runCount(open)).toBe(0);
  });

  it('refuses a foreign Origin with 403 before doing anything, even with a JSON body', async () => {
    const res = await create(open, { 'content-type': 'application/json', origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(res.json.detail).toContain('Origin "http://evil.example"');
    const nullOrigin = await create(open, { 'content-type': 'application/json', origin: 'null' });
    expect(nullOrigin.status).toBe(403);
    expect(await runCount(open)).toBe(0);
  });

  it('refuses a cancel from a foreign Origin', async () => {
    const made = await create(open, { 'content-type': 'application/json' }, JSON.stringify({ prompt: 'x [simulate hang]' }));
    expect(made.status).toBe(200);
    const res = await rawRequest(`${open.baseURL}/agent/runs/${made.json.run_id}/cancel`, { method: 'POST', headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    const run = await rawRequest(`${open.baseURL}/agent/runs/${made.json.run_id}`);
    expect(run.json.state).toBe('INPROGRESS');
  });

  it('refuses a Host that is not one of its names (DNS rebinding), on every path', async () => {
    const port = new URL(open.url).port;
    for (const path of ['/api/v1/agent/runs', '/healthz']) {
      const res = await rawRequest(`${open.url}${path}`, { headers: { host: `evil.example:${port}` } });
      expect(res.status).toBe(403);
      expect(res.json.detail).toContain('Host "evil.example');
    }
  });

  it('accepts its own origin and loopback names', async () => {
    const port = new URL(open.url).port;
    const res = await create(open, { 'content-type': 'application/json; charset=utf-8', origin: open.url, host: `localhost:${port}` });
    expect(res.status).toBe(200);
  });

  it('answers to the --public-url host and --allowed-host names, and nothing else', async () => {
    const port = new URL(named.url).port;
    const ask = (host: string, origin?: string) =>
      rawRequest(`${named.baseURL}/agent/runs`, {
        headers: { host, authorization: `Bearer ${named.apiKey}`, ...(origin ? { origin } : {}) },
      });
    expect((await ask('runs.example')).status).toBe(200);
    expect((await ask('runs.example', 'https://runs.example')).status).toBe(200);
    expect((await ask(`agents.internal:${port}`)).status).toBe(200);
    expect((await ask('agents.internal')).status).toBe(200);
    expect((await ask('other.example')).status).toBe(403);
    expect((await ask('runs.example', 'https://other.example')).status).toBe(403);
  });
});
