import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';
import { binEnv, connectStdio, textOf, type StdioSession } from './support/mcp-harness.js';

let api: RunningServer;
let mcp: StdioSession;
let readOnly: StdioSession;
let client: AgentRunsClient;
let reviewerUid: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-mcp-sources-'));
  mkdirSync(join(dir, 'kit', 'review'), { recursive: true });
  writeFileSync(join(dir, 'kit', 'review', 'SKILL.md'), '---\nname: review\ndescription: Review a change\n---\nRead the diff.\n');
  writeFileSync(join(dir, 'server.json'), JSON.stringify({ skill_directories: ['./kit'], environments: { 'web-env': { name: 'Web app' } } }));
  api = await startServer({ port: 0, storage: 'memory', simulatedDurationMs: 200, quiet: true, configFile: join(dir, 'server.json'), allowPrivateWebhooks: true });
  client = new AgentRunsClient({ baseURL: api.baseURL, apiKey: api.apiKey });
  reviewerUid = (await client.agents.create({ name: 'Reviewer', prompt: 'Be thorough.' })).uid;
  mcp = await connectStdio(binEnv(api));
  readOnly = await connectStdio(binEnv(api), ['--read-only']);
});
afterAll(async () => {
  await mcp?.close();
  await readOnly?.close();
  await client?.close();
  await api?.close();
});

describe('listing what runs start from', () => {
  it('lists environments, skills and named agents, read-only', async () => {
    const { tools } = await mcp.client.listTools();
    for (const name of ['list_environments', 'list_skills', 'list_agents', 'list_schedules']) {
      expect(tools.find((t) => t.name === name)?.annotations?.readOnlyHint, name).toBe(true);
    }
    const envs = await mcp.client.callTool({ name: 'list_environments', arguments: {} });
    expect(textOf(envs)).toContain('- Web app (id web-env)');
    const skills = await mcp.client.callTool({ name: 'list_skills', arguments: {} });
    expect(textOf(skills)).toContain('- review (skill "local/kit:review/SKILL.md"): Review a change');
    const agents = await mcp.client.callTool({ name: 'list_agents', arguments: {} });
    expect(textOf(agents)).toContain(`- Reviewer (id ${reviewerUid})`);
    expect((agents.structuredContent as { agents: unknown[] }).agents).toHaveLength(1);
  });

  it('lists the models with why each cannot be used now', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.find((t) => t.name === 'list_models')?.annotations?.readOnlyHint).toBe(true);
    const models = await mcp.client.callTool({ name: 'list_models', arguments: {} });
    const listed = (models.structuredContent as { models: { id: string; provider: string; disable_reason?: string }[] }).models;
    // The server has no harness CLI: its Claude models are listed, each with the reason it cannot run them.
    const claude = listed.filter((m) => m.provider === 'ANTHROPIC');
    expect(claude.length).toBeGreaterThan(0);
    for (const model of claude) expect(model.disable_reason).toBeTruthy();
    expect(textOf(models)).toContain(`(id ${claude[0]!.id}`);
    expect(textOf(models)).toContain('not usable:');
  });
});

describe('webhook subscriptions', () => {
  it('creates one, showing its secret once, and lists it without the secret; read-only offers only the list', async () => {
    const created = await mcp.client.callTool({ name: 'create_webhook', arguments: { url: 'http://127.0.0.1:9/hook', event_types: ['run.succeeded'] } });
    const hook = created.structuredContent as { id: string; secret: string };
    expect(hook.secret).toMatch(/^whsec_/);
    expect(textOf(created)).toContain(`Signing secret (shown once): ${hook.secret}`);
    const listed = await mcp.client.callTool({ name: 'list_webhooks', arguments: {} });
    expect(textOf(listed)).toContain(`- http://127.0.0.1:9/hook (id ${hook.id}, enabled): run.succeeded`);
    expect(JSON.stringify(listed)).not.toContain(hook.secret);
    const names = (await readOnly.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('list_webhooks');
    expect(names).not.toContain('create_webhook');
  });

  it('names the field when the URL is not one', async () => {
    const refused = await mcp.client.callTool({ name: 'create_webhook', arguments: { url: 'ftp://example.com/hook' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/url/);
  });
});

describe('create_run with a skill, an environment and a named agent', () => {
  it('tells the assistant to list them when unsure, and takes each by name', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.find((t) => t.name === 'create_run')!.description).toMatch(/call list_skills, list_environments or list_agents first/);
    const result = await mcp.client.callTool({
      name: 'create_run',
      arguments: { prompt: 'Review PR 3 [simulate hang]', skill: 'review', environment: 'web app', agent: 'reviewer' },
    });
    expect(result.isError).toBeFalsy();
    const run = await client.runs.get((result.structuredContent as { run_id: string }).run_id);
    expect(run.agent_config).toMatchObject({ environment_id: 'web-env', skill_spec: 'review', name: 'review', base_prompt: 'Be thorough.\n\nRead the diff.' });
    await client.runs.cancel(run.run_id);
  });

  it('names an unknown environment or agent, listing those that exist', async () => {
    const env = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'x', environment: 'mars' } });
    expect(env.isError).toBe(true);
    expect(textOf(env)).toContain('environment: no environment has the name or id "mars"; known: Web app (web-env)');
    const agent = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'x', agent: 'nobody' } });
    expect(textOf(agent)).toContain('agent: no named agent has the name or id "nobody"');
    const skill = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'x', skill: 'ghost' } });
    expect(textOf(skill)).toMatch(/skill: "ghost" matches no skill of this server/);
  });
});

describe('schedules', () => {
  it('creates, lists, pauses, resumes and deletes a schedule, delete marked destructive', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.find((t) => t.name === 'delete_schedule')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    const created = await mcp.client.callTool({
      name: 'create_schedule',
      arguments: { name: 'weekday review', cron_schedule: '0 9 * * 1-5', prompt: 'Review open PRs', agent_config: { environment_id: 'web-env' } },
    });
    expect(created.isError).toBeFalsy();
    const id = (created.structuredContent as { id: string }).id;
    // The time zone the cron is read in: the server's (UTC here, none being configured).
    expect(textOf(created)).toContain(`- weekday review (id ${id}): "0 9 * * 1-5" (UTC), next run 20`);
    expect(textOf(await mcp.client.callTool({ name: 'list_schedules', arguments: {} }))).toContain(`(id ${id})`);
    expect(textOf(await mcp.client.callTool({ name: 'pause_schedule', arguments: { schedule_id: id } }))).toContain('paused');
    expect((await mcp.client.callTool({ name: 'resume_schedule', arguments: { schedule_id: id } })).structuredContent).toMatchObject({ enabled: true });
    expect((await mcp.client.callTool({ name: 'delete_schedule', arguments: { schedule_id: id } })).structuredContent).toEqual({ schedule_id: id, deleted: true });
    expect((await client.schedules.list()).schedules).toHaveLength(0);
  });

  it('passes on the server’s verdict on a bad cron expression', async () => {
    const result = await mcp.client.callTool({ name: 'create_schedule', arguments: { name: 'n', cron_schedule: 'daily', prompt: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cron_schedule: "daily" is not a 5-field cron expression/);
  });

  it('keeps only the listing tools in read-only mode', async () => {
    const { tools } = await readOnly.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_environments', 'list_skills', 'list_agents', 'list_schedules']));
    expect(names).not.toEqual(expect.arrayContaining(['create_schedule']));
    for (const name of ['create_schedule', 'pause_schedule', 'resume_schedule', 'delete_schedule']) expect(names).not.toContain(name);
  });
});
