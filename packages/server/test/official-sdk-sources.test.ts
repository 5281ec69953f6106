import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OzAPI from 'oz-agent-sdk';
import type { AgentListResponse } from 'oz-agent-sdk/resources/agent/agent';
import type { ScheduledAgentItem, ScheduleListResponse } from 'oz-agent-sdk/resources/agent/schedules';
import { AgentSkillSchema, ScheduledAgentItemSchema } from '@agent-runs/core';
import { gitRepo } from './support/git-repo.js';
import { tempTree, writeServerConfig } from './support/server-config.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

// The newest official SDK on the registry (oz-agent-sdk 1.0.0-alpha.8) has schedules and the
// skills list; it has no environments or identities calls yet (those are covered over HTTP).
let t: TestServer;
let sdk: OzAPI;
beforeAll(async () => {
  const skills = tempTree({ 'kit/triage/SKILL.md': '---\nname: triage\ndescription: Sort issues\n---\nLabel each issue.\n' });
  const repo = gitRepo({ 'README.md': 'x\n' });
  t = await startTestServer({
    configFile: writeServerConfig({ skill_directories: [`${skills}/kit`], environments: { web: { repos: [{ url: repo }] } } }),
  });
  sdk = new OzAPI({ apiKey: t.server.apiKey, baseURL: t.server.baseURL, maxRetries: 0 });
});
afterAll(() => t.close());

/** The SDK's required members of a schedule, checked at run time as its types declare them. */
function expectScheduleShape(item: ScheduledAgentItem): void {
  expect(item).toMatchObject({
    id: expect.any(String),
    created_at: expect.any(String),
    cron_schedule: expect.any(String),
    enabled: expect.any(Boolean),
    name: expect.any(String),
    prompt: expect.any(String),
    updated_at: expect.any(String),
  });
  expect(ScheduledAgentItemSchema.safeParse(item).success).toBe(true);
  if (item.scope) expect(['User', 'Team']).toContain(item.scope.type);
}

describe('the official SDK against the local server', () => {
  it('creates, retrieves, updates, lists, pauses, resumes and deletes a schedule', async () => {
    const created = await sdk.agent.schedules.create({
      name: 'nightly triage',
      cron_schedule: '0 3 * * *',
      prompt: 'Triage new issues',
      agent_config: { environment_id: 'web', skill_spec: 'kit:triage' },
      enabled: true,
    });
    expectScheduleShape(created);
    expect(created.environment).toMatchObject({ name: 'web', github_repos: [expect.objectContaining({ repo: expect.any(String) })] });
    expectScheduleShape(await sdk.agent.schedules.retrieve(created.id));
    const updated = await sdk.agent.schedules.update(created.id, { name: 'hourly triage', cron_schedule: '0 * * * *', enabled: true, prompt: 'Triage' });
    expect(updated).toMatchObject({ name: 'hourly triage', cron_schedule: '0 * * * *' });
    const list: ScheduleListResponse = await sdk.agent.schedules.list();
    expect(list.schedules.map((s) => s.id)).toContain(created.id);
    list.schedules.forEach(expectScheduleShape);
    expect((await sdk.agent.schedules.pause(created.id)).enabled).toBe(false);
    expect((await sdk.agent.schedules.resume(created.id)).enabled).toBe(true);
    expect(await sdk.agent.schedules.delete(created.id)).toEqual({ success: true });
  });

  it('gets a 400 BadRequestError naming cron_schedule for an invalid expression', async () => {
    const error = await sdk.agent.schedules.create({ name: 'bad', cron_schedule: 'every day', prompt: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OzAPI.BadRequestError);
    expect((error as { error: { detail: string } }).error.detail).toMatch(/^cron_schedule: "every day" is not a 5-field cron expression/);
  });

  it('lists skills with agent.list, each in the SDK’s shape', async () => {
    const skills: AgentListResponse = await sdk.agent.list({ refresh: true });
    expect(skills.agents.map((a) => a.name)).toEqual(['triage']);
    for (const skill of skills.agents) {
      expect(AgentSkillSchema.safeParse(skill).success).toBe(true);
      for (const v of skill.variants) {
        expect(v).toMatchObject({ id: expect.any(String), base_prompt: expect.any(String), description: expect.any(String), environments: expect.any(Array) });
        expect(v.source).toMatchObject({ name: expect.any(String), owner: expect.any(String), skill_path: expect.any(String) });
      }
    }
  });

  // The SDK 1.4 calls (listEnvironments, agent.agent.*) are not in the registry's newest SDK;
  // its transport sends the same requests they do, checked against their declared shapes.
  it('answers the 1.4 environments and identities calls as its types declare them', async () => {
    const { environments } = await sdk.get<{ environments: Record<string, unknown>[] }>('/agent/environments', { query: { sort_by: 'name' } });
    expect(environments).toHaveLength(1);
    expect(environments[0]).toMatchObject({ uid: 'web', config: expect.any(Object), last_updated: expect.any(String), setup_failed: false });

    const created = await sdk.post<Record<string, unknown>>('/agent/identities', {
      body: { name: 'reviewer', skills: ['kit:triage'], environment_id: 'web', memory: { auto_memory: { enabled: true } } },
    });
    const required = { available: expect.any(Boolean), created_at: expect.any(String), default_runner_uid: expect.any(String), name: 'reviewer',
      secrets: expect.any(Array), skills: ['kit:triage'], uid: expect.any(String), updated_at: expect.any(String),
      memory: { attached_stores: expect.any(Array), auto_memory: { enabled: true } } };
    expect(created).toMatchObject(required);
    const uid = created.uid as string;
    expect(await sdk.get(`/agent/identities/${uid}`)).toMatchObject(required);
    expect(await sdk.put(`/agent/identities/${uid}`, { body: { description: 'Reviews' } })).toMatchObject({ description: 'Reviews' });
    const { agents } = await sdk.get<{ agents: unknown[] }>('/agent/identities');
    expect(agents).toHaveLength(1);
    await sdk.delete(`/agent/identities/${uid}`, { headers: { Accept: '*/*' } });
    expect((await sdk.get<{ agents: unknown[] }>('/agent/identities')).agents).toHaveLength(0);
  });
});
