import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentIdentitySchema } from '@agent-runs/core';
import { tempTree, writeServerConfig } from './support/server-config.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const big = (name: string) => `---\nname: ${name}\n---\n${'x'.repeat(60 * 1024)}\n`;
const skills = tempTree({
  'kit/triage/SKILL.md': '---\nname: triage\n---\nLabel the issue.\n',
  'kit/big-one/SKILL.md': big('big-one'),
  'kit/big-two/SKILL.md': big('big-two'),
});
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    configFile: writeServerConfig({ skill_directories: [`${skills}/kit`], environments: { web: {}, api: {} } }),
  });
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };
const call = (method: string, path: string, body?: unknown) =>
  t.raw(`/api/v1${path}`, { method, headers: json, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });

const reviewer = {
  name: 'reviewer',
  description: 'Reviews pull requests',
  prompt: 'You review code carefully.',
  skills: ['kit:triage'],
  environment_id: 'web',
  base_model: 'model-large',
  mcp_servers: { docs: { url: 'https://mcp.example.com/docs' } },
  // Kept and shown; this server does nothing with them.
  memory: { attached_stores: [{ uid: 'store-1', access: 'read_only', instructions: 'Team notes' }] },
  secrets: [{ name: 'GITHUB_TOKEN' }],
  harness: { type: 'claude' },
};

describe('named agents', () => {
  it('creates, gets, lists, updates and deletes a named agent, keeping the members it cannot act on', async () => {
    const created = await call('POST', '/agent/identities', reviewer);
    expect(created.status).toBe(201);
    const agent = AgentIdentitySchema.parse(created.body);
    expect(agent).toMatchObject({
      name: 'reviewer',
      available: true,
      skills: ['kit:triage'],
      environment_id: 'web',
      secrets: [{ name: 'GITHUB_TOKEN' }],
      memory: { attached_stores: [{ uid: 'store-1', access: 'read_only', instructions: 'Team notes' }], auto_memory: { enabled: false } },
      harness: { type: 'claude' },
    });
    expect((await call('GET', `/agent/identities/${agent.uid}`)).body).toEqual(created.body);
    expect((await call('GET', '/agent/identities')).body.agents.map((a: { uid: string }) => a.uid)).toContain(agent.uid);

    const updated = await call('PUT', `/agent/identities/${agent.uid}`, { description: null, environment_id: 'api', name: 'senior reviewer' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'senior reviewer', environment_id: 'api', prompt: 'You review code carefully.' });
    expect(updated.body).not.toHaveProperty('description');

    const deleted = await call('DELETE', `/agent/identities/${agent.uid}`);
    expect(deleted.status).toBe(204);
    expect((await call('GET', `/agent/identities/${agent.uid}`)).status).toBe(404);
  });

  it('gives a run that names it its prompt, skills, MCP servers, model and environment, the request’s own members winning', async () => {
    const { body: agent } = await call('POST', '/agent/identities', reviewer);
    const { run_id } = await t.client.runs.create({ prompt: 'Review PR 7 [simulate hang]', agent_identity_uid: agent.uid } as never);
    const run = await t.client.runs.get(run_id);
    expect(run.agent_config).toEqual({
      environment_id: 'web',
      model_id: 'model-large',
      skills: ['kit:triage'],
      mcp_servers: { docs: { url: 'https://mcp.example.com/docs' } },
      base_prompt: 'You review code carefully.\n\nLabel the issue.',
      name: 'reviewer',
    });
    await t.client.runs.cancel(run_id);

    const own = await t.client.runs.create({
      prompt: 'Review PR 8 [simulate hang]',
      agent_identity_uid: agent.uid,
      config: { environment_id: 'api', base_prompt: 'Be brief', mcp_servers: { gh: { command: 'gh-mcp' } } },
    } as never);
    const mine = await t.client.runs.get(own.run_id);
    expect(mine.agent_config).toMatchObject({
      environment_id: 'api',
      base_prompt: 'Be brief',
      mcp_servers: { docs: { url: 'https://mcp.example.com/docs' }, gh: { command: 'gh-mcp' } },
    });
    await t.client.runs.cancel(own.run_id);
  });

  it('names the mistake: an unknown agent, environment or skill, a bad member', async () => {
    const run = await call('POST', '/agent/runs', { prompt: 'x', agent_identity_uid: 'nobody' });
    expect(run.status).toBe(400);
    expect(run.body.detail).toBe('agent_identity_uid: "nobody" names no named agent of this server (see GET /agent/identities).');
    const cases: [unknown, RegExp][] = [
      [{ description: 'no name' }, /^name: /],
      [{ name: 'x', environment_id: 'moon' }, /^environment_id: "moon" names no environment of this server; declared: web, api\.$/],
      [{ name: 'x', skills: ['kit:nothing'] }, /^skills\[0\]: "kit:nothing" matches no skill/],
      [{ name: 'x', agent_type: 'BOSS' }, /^agent_type: must be one of FOREMAN/],
      [{ name: 'x', favourite: 'tea' }, /favourite: is not a known field/],
    ];
    for (const [body, detail] of cases) {
      const res = await call('POST', '/agent/identities', body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(detail);
    }
    expect((await call('PUT', '/agent/identities/missing', { name: 'y' })).status).toBe(404);
    // The base prompt reaches the agent in one environment variable, which has a size limit.
    const { body: heavy } = await call('POST', '/agent/identities', { name: 'heavy', skills: ['kit:big-one', 'kit:big-two'] });
    const tooBig = await call('POST', '/agent/runs', { prompt: 'x', agent_identity_uid: heavy.uid });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.detail).toMatch(/^agent_identity_uid: the named agent's prompt and skills come to 121 KiB of base prompt, over the limit of 96 KiB/);
    expect((await call('DELETE', '/agent/identities/missing')).status).toBe(404);
  });
});
