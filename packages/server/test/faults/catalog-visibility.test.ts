import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

// Reproduction: alice starts a run in an environment and from a skill; bob, a second key
// without shared runs, lists environments and skills and must learn nothing of it.
const KEYS = [
  { key: 'key-of-alice-123', principal: 'alice' },
  { key: 'key-of-bob-45678', principal: 'bob' },
];
const skills = tempTree({ 'team/review/SKILL.md': '---\nname: review\ndescription: Review\n---\nReview it.\n' });

describe.each([false, true])('environments and skills listed by another principal (shared runs: %s)', (sharedRuns) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      apiKeys: KEYS,
      sharedRuns,
      configFile: writeServerConfig({ skill_directories: [`${skills}/team`], environments: { web: { name: 'Web' } } }),
    });
  });
  afterAll(() => t.close());

  it(sharedRuns ? 'show every principal’s latest run' : 'show only the caller’s own runs', async () => {
    const secret = 'Rotate the payroll key [simulate 10ms]';
    const { run_id } = await t.client.runs.create({ prompt: secret, config: { environment_id: 'web' } });
    const fromSkill = await t.client.runs.create({ prompt: 'Review PR 9 [simulate 10ms]', skill: 'team:review' });
    await t.client.runs.wait(run_id, { pollInterval: 20 });
    await t.client.runs.wait(fromSkill.run_id, { pollInterval: 20 });

    const asBob = { key: 'key-of-bob-45678' };
    const envs = await t.raw('/api/v1/agent/environments', asBob);
    const web = envs.body.environments.find((e: { uid: string }) => e.uid === 'web');
    const listed = await t.raw('/api/v1/agent', asBob);
    const review = listed.body.agents.find((a: { name: string }) => a.name === 'review');
    if (sharedRuns) {
      expect(web.last_task_created).toMatchObject({ id: run_id });
      expect(review.variants[0].last_run_timestamp).not.toBeNull();
      return;
    }
    expect(JSON.stringify(envs.body)).not.toContain(run_id);
    expect(JSON.stringify(envs.body)).not.toContain('payroll');
    expect(web.last_task_created ?? null).toBeNull();
    expect(review.variants[0].last_run_timestamp).toBeNull();
    // The owner still sees its own.
    const own = await t.raw('/api/v1/agent/environments');
    expect(own.body.environments.find((e: { uid: string }) => e.uid === 'web').last_task_created).toMatchObject({ id: run_id });
  });
});
