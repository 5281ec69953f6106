import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, NotFoundError, RunItemSchema } from '@agent-runs/core';
import { CALLER_SOURCE_HEADER } from '@agent-runs/core/contract';
import { tempTree, writeServerConfig } from './support/server-config.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let t: TestServer;
beforeAll(async () => {
  const skills = tempTree({ 'tools/triage/SKILL.md': '---\nname: triage\ndescription: Sort new issues\n---\nLabel each new issue.\n' });
  t = await startTestServer({
    apiKeys: [{ key: 'key-of-alice-123', principal: 'alice' }],
    configFile: writeServerConfig({ skill_directories: [join(skills, 'tools')] }),
  });
});
afterAll(() => t.close());

describe('creating and fetching runs', () => {
  it('creates a QUEUED run and returns it in full by id', async () => {
    const created = await t.client.runs.create({ prompt: 'Fix the flaky test [simulate hang]', config: { name: 'fixer', model_id: 'm1' } });
    expect(created).toMatchObject({ state: 'QUEUED', task_id: created.run_id });
    const run = await t.client.runs.get(created.run_id);
    expect(RunItemSchema.parse(run)).toBeTruthy();
    expect(run).toMatchObject({
      run_id: created.run_id,
      title: 'Fix the flaky test [simulate hang]',
      prompt: 'Fix the flaky test [simulate hang]',
      agent_config: { name: 'fixer', model_id: 'm1' },
      creator: { uid: 'alice' },
      source: 'API',
    });
    expect(run.session_link).toMatch(new RegExp(`^${t.server.url}/sessions/${run.session_id}\\?token=[\\w-]{43}$`));
    await t.client.runs.cancel(created.run_id);
  });

  it('answers POST /agent/runs like POST /agent/run', async () => {
    const res = await t.raw('/api/v1/agent/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Alias path', title: 'Given title' }),
    });
    expect(res.status).toBe(200);
    const run = await t.client.runs.get(res.body.run_id);
    expect(run.title).toBe('Given title');
  });

  it('records the source the caller claims through the core header', async () => {
    const cli = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: 'key-of-alice-123', source: 'CLI' });
    const { run_id } = await cli.runs.create({ prompt: 'from the terminal' });
    expect((await cli.runs.get(run_id)).source).toBe('CLI');
    await cli.close();
    const res = await t.raw('/api/v1/agent/run', {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CALLER_SOURCE_HEADER]: 'SLACK' },
      body: JSON.stringify({ prompt: 'claims an unclaimable source' }),
    });
    expect((await t.client.runs.get(res.body.run_id)).source).toBe('API');
  });

  it('names a run after its skill and records the skill spec when no prompt is given', async () => {
    const { run_id } = await t.client.runs.create({ skill: 'tools:triage' });
    const run = await t.client.runs.get(run_id);
    expect(run.title).toBe('Run skill triage');
    expect(run.agent_config).toMatchObject({ skill_spec: 'tools:triage', name: 'triage' });
  });

  it('answers an unknown run id with a 404 NotFoundError', async () => {
    await expect(t.client.runs.get('no-such-run')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('serves a session page with the prompt, state and output', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Show <me> [simulate 50ms]' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 25 });
    const res = await fetch(run.session_link!);
    const html = await res.text();
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('Show &lt;me&gt;');
    expect(html).toContain('SUCCEEDED');
    expect(html).toContain('simulated agent');
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).not.toContain('session-live.js');
  });

  it('hides MCP server env and header values on the session page', async () => {
    const { run_id } = await t.client.runs.create({
      prompt: 'With secrets [simulate hang]',
      config: {
        mcp_servers: {
          gh: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_secret_value' } },
          api: { url: 'https://mcp.example.com', headers: { authorization: 'Bearer hdr_secret_value' } },
        },
      },
    });
    const run = await t.client.runs.get(run_id);
    const html = await (await fetch(run.session_link!)).text();
    expect(html).toContain('GITHUB_TOKEN');
    expect(html).toContain('gh-mcp');
    expect(html).not.toContain('ghp_secret_value');
    expect(html).not.toContain('hdr_secret_value');
    await t.client.runs.cancel(run_id);
  });
});
