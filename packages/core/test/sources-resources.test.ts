import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, BadRequestError, NotFoundError, RequestValidationError, type ScheduledAgentItem } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';

// The core client's schedules, environments, agents (skills) and identities against the real local server.
let server: RunningServer;
let client: AgentRunsClient;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-core-sources-'));
  mkdirSync(join(dir, 'kit', 'triage'), { recursive: true });
  writeFileSync(join(dir, 'kit', 'triage', 'SKILL.md'), '---\nname: triage\ndescription: Sort issues\n---\nLabel each issue.\n');
  writeFileSync(
    join(dir, 'server.json'),
    JSON.stringify({ skill_directories: ['./kit'], environments: { web: { name: 'Web app', setup_commands: ['true'] } } }),
  );
  server = await startServer({ port: 0, storage: 'memory', quiet: true, configFile: join(dir, 'server.json') });
  client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey, maxRetries: 0 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('client.schedules', () => {
  it('creates, gets, updates, lists, pauses, resumes and deletes, with the response at hand', async () => {
    const { data: created, response } = await client.schedules
      .create({ name: 'nightly', cron_schedule: '0 2 * * *', prompt: 'Tidy up', agent_config: { environment_id: 'web' } })
      .withResponse();
    expect(response.status).toBe(201);
    expect(created).toMatchObject({ name: 'nightly', enabled: true, environment: { name: 'Web app' } });
    const got: ScheduledAgentItem = await client.schedules.get(created.id);
    expect(got.id).toBe(created.id);
    const updated = await client.schedules.update(created.id, { name: 'nightly', cron_schedule: '30 2 * * *', enabled: false, prompt: 'Tidy' });
    expect(updated).toMatchObject({ cron_schedule: '30 2 * * *', enabled: false, history: { next_run: null } });
    expect((await client.schedules.list()).schedules.map((s) => s.id)).toContain(created.id);
    expect((await client.schedules.resume(created.id)).enabled).toBe(true);
    expect((await client.schedules.pause(created.id)).enabled).toBe(false);
    expect(await client.schedules.delete(created.id)).toEqual({ success: true });
    await expect(client.schedules.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('names a mistake before sending, and passes on the server’s cron verdict as a BadRequestError', async () => {
    const local = await client.schedules.create({ name: '', cron_schedule: '* * * * *', prompt: 'x' }).catch((e: unknown) => e);
    expect(local).toBeInstanceOf(RequestValidationError);
    expect((local as RequestValidationError).message).toMatch(/name: must be a non-empty string/);
    const remote = await client.schedules.create({ name: 'n', cron_schedule: '* * * 13 *', prompt: 'x' }).catch((e: unknown) => e);
    expect(remote).toBeInstanceOf(BadRequestError);
    expect((remote as BadRequestError).message).toMatch(/cron_schedule: "\* \* \* 13 \*" is not a 5-field cron expression/);
    await expect(client.schedules.get('')).rejects.toThrow(/scheduleId: must be a non-empty string/);
  });
});

describe('client.environments, client.skills and client.agents', () => {
  it('lists environments and skills', async () => {
    const { environments } = await client.environments.list({ sort_by: 'name' });
    expect(environments).toEqual([expect.objectContaining({ uid: 'web', config: expect.objectContaining({ name: 'Web app', setup_commands: ['true'] }) })]);
    const { agents } = await client.skills.list({ repo: 'kit', sort_by: 'last_run' });
    expect(agents).toEqual([expect.objectContaining({ name: 'triage', variants: [expect.objectContaining({ id: 'local/kit:triage/SKILL.md' })] })]);
    await expect(client.skills.list({ sort_by: 'size' as never })).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('creates, gets, updates, lists and deletes a named agent, and a run takes its defaults', async () => {
    const agent = await client.agents.create({ name: 'triager', skills: ['kit:triage'], environment_id: 'web', prompt: 'Be terse.' });
    expect(agent).toMatchObject({ name: 'triager', skills: ['kit:triage'], available: true });
    expect((await client.agents.get(agent.uid)).uid).toBe(agent.uid);
    expect((await client.agents.update(agent.uid, { prompt: null })).prompt).toBeUndefined();
    expect((await client.agents.list()).agents.map((a) => a.uid)).toContain(agent.uid);
    const { run_id } = await client.runs.create({ prompt: 'Sort the backlog [simulate hang]', agent_identity_uid: agent.uid } as never);
    expect((await client.runs.get(run_id)).agent_config).toMatchObject({ environment_id: 'web', base_prompt: 'Label each issue.', name: 'triager' });
    await client.runs.cancel(run_id);
    expect(await client.agents.delete(agent.uid)).toBeUndefined();
    await expect(client.agents.get(agent.uid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('keeps client.identities for one release as the same named agents', async () => {
    expect(client.identities).toBe(client.agents);
    const agent = await client.identities.create({ name: 'legacy-name' });
    expect((await client.agents.get(agent.uid)).name).toBe('legacy-name');
    await client.agents.delete(agent.uid);
  });
});
