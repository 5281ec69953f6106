import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@agent-runs/server';
import { rawRequest } from '../support/raw-http.js';

let server: RunningServer;
beforeAll(async () => {
  // A real agent command: a NUL that reached its environment would fail the spawn.
  server = await startServer({
    storage: 'memory',
    quiet: true,
    executor: 'command',
    command: 'printf "%s" "$AGENT_RUNS_TITLE"',
    workDir: mkdtempSync(join(tmpdir(), 'agent-runs-work-')),
  });
});
afterAll(() => server.close());

const auth = () => ({ authorization: `Bearer ${server.apiKey}` });
const create = (body: unknown) =>
  rawRequest(`${server.baseURL}/agent/run`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('control characters in fields that reach an environment variable or a header', () => {
  it.each([
    ['title', { prompt: 'x', title: 'a\u0000b' }, 'title'],
    ['title with a terminal escape', { prompt: 'x', title: '\u001b]0;owned\u0007' }, 'title'],
    ['title with a line break', { prompt: 'x', title: 'one\r\ntwo' }, 'title'],
    ['config.model_id', { prompt: 'x', config: { model_id: 'm\u0000' } }, 'config.model_id'],
    ['config.environment_id', { prompt: 'x', config: { environment_id: 'e\u0000' } }, 'config.environment_id'],
    ['config.base_prompt', { prompt: 'x', config: { base_prompt: 'be\u0000brief' } }, 'config.base_prompt'],
    ['an MCP server env value', { prompt: 'x', config: { mcp_servers: { gh: { command: 'gh', env: { TOKEN: 'a\u0000b' } } } } }, 'config.mcp_servers.gh.env.TOKEN'],
    ['an MCP server header value', { prompt: 'x', config: { mcp_servers: { api: { url: 'https://mcp.example', headers: { 'x-a': 'v\r\nx-b: injected' } } } } }, 'config.mcp_servers.api.headers.x-a'],
  ])('refuses NUL and other controls in %s with a 400 naming it', async (_what, body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.json.detail).toContain(`${field}: must not contain control characters`);
    expect(res.json.retryable).toBe(false);
  });

  it('still takes tabs and line breaks in a base prompt', async () => {
    const res = await create({ prompt: 'x', config: { base_prompt: 'Line one\n\tLine two' } });
    expect(res.status).toBe(200);
  });

  it('makes a title an environment variable can hold from a prompt with NUL, and the agent runs', async () => {
    const res = await create({ prompt: 'Fix\u0000 the\u001b[2J bug' });
    expect(res.status).toBe(200);
    await expect
      .poll(async () => (await rawRequest(`${server.baseURL}/agent/runs/${res.json.run_id}`, { headers: auth() })).json, { timeout: 10_000 })
      .toMatchObject({ state: 'SUCCEEDED', title: 'Fix  the\u001b[2J bug' });
  });
});
