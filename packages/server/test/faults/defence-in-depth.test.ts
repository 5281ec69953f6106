import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@agent-runs/server';
import { rawRequest } from '../support/raw-http.js';

const ALICE = 'key-of-alice-123';
const BOB = 'key-of-bob-45678';
const keys = [
  { key: ALICE, principal: 'alice' },
  { key: BOB, principal: 'bob' },
];
const as = (key: string) => ({ authorization: `Bearer ${key}` });
const mode = (file: string) => statSync(file).mode & 0o777;

async function createAs(server: RunningServer, key: string, body: unknown) {
  const res = await rawRequest(`${server.baseURL}/agent/run`, { method: 'POST', headers: { ...as(key), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return res.json.run_id as string;
}

describe('files', () => {
  let server: RunningServer;
  let dataDir: string;
  let workDir: string;
  beforeAll(async () => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'agent-runs-data-')), 'made-by-the-server');
    workDir = mkdtempSync(join(tmpdir(), 'agent-runs-work-'));
    server = await startServer({ dataDir, workDir, quiet: true, executor: 'command', command: 'cat > /dev/null' });
  });
  afterAll(() => server.close());

  it('creates the data directory, runs.sqlite, the generated key, the session secret and each mcp.json for this user only', async () => {
    const id = await createAs(server, server.apiKey, { prompt: 'x', config: { mcp_servers: { gh: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_secret' } } } } });
    await expect.poll(async () => (await rawRequest(`${server.baseURL}/agent/runs/${id}`, { headers: as(server.apiKey) })).json.state).toBe('SUCCEEDED');
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'runs.sqlite'))).toBe(0o600);
    expect(mode(join(dataDir, 'api-key'))).toBe(0o600);
    expect(mode(join(dataDir, 'session-secret'))).toBe(0o600);
    expect(mode(join(workDir, id, 'mcp.json'))).toBe(0o600);
  });
});

describe('the session page', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ storage: 'memory', quiet: true, simulatedDurationMs: 10 });
  });
  afterAll(() => server.close());

  it('sends a Content-Security-Policy, nosniff, no-referrer and no-store', async () => {
    const id = await createAs(server, server.apiKey, { prompt: '<script>alert(1)</script>' });
    const run = (await rawRequest(`${server.baseURL}/agent/runs/${id}`, { headers: as(server.apiKey) })).json;
    const page = await rawRequest(run.session_link);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    // The only script is the server's own live-update file; nothing inline, nothing evaluated, nothing from elsewhere.
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self';/);
    expect(page.headers['content-security-policy']).toMatch(/connect-src 'self';/);
    expect(page.headers['content-security-policy']).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
  });
});

describe('runs belong to the principal of the key that made them', () => {
  let server: RunningServer;
  let shared: RunningServer;
  let bobsRun: string;
  beforeAll(async () => {
    server = await startServer({ storage: 'memory', quiet: true, apiKeys: keys });
    shared = await startServer({ storage: 'memory', quiet: true, apiKeys: keys, sharedRuns: true });
    bobsRun = await createAs(server, BOB, { prompt: 'bob only [simulate hang]' });
  });
  afterAll(async () => {
    await server.close();
    await shared.close();
  });

  it('does not let another key read, list or cancel them', async () => {
    const get = await rawRequest(`${server.baseURL}/agent/runs/${bobsRun}`, { headers: as(ALICE) });
    expect(get.status).toBe(404);
    const list = await rawRequest(`${server.baseURL}/agent/runs`, { headers: as(ALICE) });
    expect(list.json.runs).toEqual([]);
    const byCreator = await rawRequest(`${server.baseURL}/agent/runs?creator=bob`, { headers: as(ALICE) });
    expect(byCreator.json.runs).toEqual([]);
    const cancel = await rawRequest(`${server.baseURL}/agent/runs/${bobsRun}/cancel`, { method: 'POST', headers: as(ALICE) });
    expect(cancel.status).toBe(404);
    const own = await rawRequest(`${server.baseURL}/agent/runs/${bobsRun}`, { headers: as(BOB) });
    expect(own.json.state).toBe('INPROGRESS');
    expect((await rawRequest(`${server.baseURL}/agent/runs`, { headers: as(BOB) })).json.runs).toHaveLength(1);
  });

  it('does not open the session page for another key without the link token', async () => {
    const link = (await rawRequest(`${server.baseURL}/agent/runs/${bobsRun}`, { headers: as(BOB) })).json.session_link as string;
    const bare = link.replace(/\?.*$/, '');
    expect((await rawRequest(bare, { headers: as(ALICE) })).status).toBe(403);
    expect((await rawRequest(bare, { headers: as(BOB) })).status).toBe(200);
  });

  it('lets every key read and cancel every run with --shared-runs', async () => {
    const id = await createAs(shared, BOB, { prompt: 'shared [simulate hang]' });
    expect((await rawRequest(`${shared.baseURL}/agent/runs/${id}`, { headers: as(ALICE) })).status).toBe(200);
    expect((await rawRequest(`${shared.baseURL}/agent/runs`, { headers: as(ALICE) })).json.runs).toHaveLength(1);
    expect((await rawRequest(`${shared.baseURL}/agent/runs/${id}/cancel`, { method: 'POST', headers: as(ALICE) })).status).toBe(200);
  });
});
