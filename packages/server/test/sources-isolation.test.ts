import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, BadRequestError, NotFoundError } from '@agent-runs/core';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const KEYS = [
  { key: 'key-of-alice-123', principal: 'alice' },
  { key: 'key-of-bob-45678', principal: 'bob' },
];

describe.each([false, true])('schedules and named agents of other keys (shared runs: %s)', (sharedRuns) => {
  let t: TestServer;
  let bob: AgentRunsClient;
  beforeAll(async () => {
    t = await startTestServer({ apiKeys: KEYS, sharedRuns });
    bob = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: 'key-of-bob-45678', maxRetries: 0 });
  });
  afterAll(async () => {
    await bob.close();
    await t.close();
  });

  it(sharedRuns ? 'are seen and used by every key' : 'are hidden from another principal, as its runs are', async () => {
    const agent = await t.client.identities.create({ name: 'alice-agent', prompt: 'Alice’s way.' });
    const schedule = await t.client.schedules.create({ name: 'alice-nightly', cron_schedule: '0 2 * * *', prompt: 'x' });
    const bobsAgents = (await bob.identities.list()).agents.map((a) => a.uid);
    const bobsSchedules = (await bob.schedules.list()).schedules.map((s) => s.id);
    if (sharedRuns) {
      expect(bobsAgents).toContain(agent.uid);
      expect(bobsSchedules).toContain(schedule.id);
      const { run_id } = await bob.runs.create({ prompt: 'Use it [simulate 10ms]', agent_identity_uid: agent.uid } as never);
      expect((await bob.runs.get(run_id)).agent_config?.base_prompt).toBe('Alice’s way.');
      return;
    }
    expect(bobsAgents).not.toContain(agent.uid);
    expect(bobsSchedules).not.toContain(schedule.id);
    await expect(bob.identities.get(agent.uid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(bob.identities.delete(agent.uid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(bob.schedules.get(schedule.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(bob.schedules.pause(schedule.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(bob.schedules.delete(schedule.id)).rejects.toBeInstanceOf(NotFoundError);
    const use = await bob.runs.create({ prompt: 'x', agent_identity_uid: agent.uid } as never).catch((e: unknown) => e);
    expect(use).toBeInstanceOf(BadRequestError);
    expect((await t.client.schedules.get(schedule.id)).enabled).toBe(true);
  });
});
