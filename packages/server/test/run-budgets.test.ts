import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';
import { writeServerConfig } from './support/server-config.js';

const ALICE = { key: 'alice-key-0123456789abcdef', principal: 'alice' };
const BOB = { key: 'bob-key-0123456789abcdef', principal: 'bob' };

const post = (t: TestServer, path: string, body: unknown, key = ALICE.key) =>
  t.raw(path, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const create = (t: TestServer, config: Record<string, unknown>, key = ALICE.key) => post(t, '/api/v1/agent/runs', { prompt: 'hello', config }, key);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    apiKeys: [ALICE, BOB],
    configFile: writeServerConfig({
      environments: { small: { description: 'a small one' } },
      budgets: {
        default: { max_duration_seconds: 600 },
        max: { max_duration_seconds: 3600 },
        principals: { bob: { default: { max_duration_seconds: 30 }, max: { max_duration_seconds: 60 } } },
        environments: { small: { max: { max_duration_seconds: 120 } } },
      },
    }),
  });
});
afterAll(async () => t?.close());

describe('agent_config.budget on create', () => {
  it('refuses negative, non-numeric, absurd and empty caps, naming the field and the allowed range', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ max_duration_seconds: -5 }, 'config.budget.max_duration_seconds', 'a whole number from 1 to 604800'],
      [{ max_tokens: 'lots' }, 'config.budget.max_tokens', 'a whole number from 1 to 10000000000'],
      [{ max_cost_usd: 1e12 }, 'config.budget.max_cost_usd', 'a number from 0.0001 to 100000'],
      [{ max_duration_seconds: 1.5 }, 'config.budget.max_duration_seconds', 'a whole number from 1 to 604800'],
      [{}, 'config.budget', 'needs at least one of max_cost_usd, max_tokens, max_duration_seconds'],
      [{ max_seconds: 5 }, 'config.budget.max_seconds', 'is not a known field'],
    ];
    for (const [budget, path, message] of cases) {
      const res = await create(t, { budget });
      expect(res.status, JSON.stringify(budget)).toBe(400);
      expect(res.body.issues, JSON.stringify(budget)).toContainEqual({ path, message: expect.stringContaining(message) });
    }
  });

  it('refuses a cost or token cap on an agent that reports no usage, naming the field', async () => {
    for (const field of ['max_cost_usd', 'max_tokens']) {
      const res = await create(t, { budget: { [field]: 1 } });
      expect(res.status).toBe(400);
      expect(res.body.issues).toEqual([{ path: `agent_config.budget.${field}`, message: expect.stringContaining('reports no usage') }]);
    }
  });
});

describe('the budgets: section of the configuration file', () => {
  it('gives a run without a cap the default of its principal, else the top level', async () => {
    const alice = await create(t, {});
    expect(alice.status).toBe(200);
    expect((await t.raw(`/api/v1/agent/runs/${alice.body.run_id}`, { key: ALICE.key })).body.agent_config.budget).toEqual({ max_duration_seconds: 600 });
    const bob = await create(t, {}, BOB.key);
    expect((await t.raw(`/api/v1/agent/runs/${bob.body.run_id}`, { key: BOB.key })).body.agent_config.budget).toEqual({ max_duration_seconds: 30 });
    // An environment's lower maximum takes its default down to it.
    const small = await create(t, { environment_id: 'small' });
    expect((await t.raw(`/api/v1/agent/runs/${small.body.run_id}`, { key: ALICE.key })).body.agent_config.budget).toEqual({ max_duration_seconds: 120 });
    // A cap the run names is kept.
    const named = await create(t, { budget: { max_duration_seconds: 45 } }, BOB.key);
    expect((await t.raw(`/api/v1/agent/runs/${named.body.run_id}`, { key: BOB.key })).body.agent_config.budget).toEqual({ max_duration_seconds: 45 });
  });

  it('refuses a cap above the maximum, naming the field and the maximum that holds', async () => {
    const alice = await create(t, { budget: { max_duration_seconds: 7200 } });
    expect(alice.status).toBe(400);
    expect(alice.body.issues).toEqual([{ path: 'agent_config.budget.max_duration_seconds', message: expect.stringContaining('at most 3600, the maximum for every run') }]);
    const bob = await create(t, { budget: { max_duration_seconds: 61 } }, BOB.key);
    expect(bob.body.issues).toEqual([{ path: 'agent_config.budget.max_duration_seconds', message: expect.stringContaining('at most 60, the maximum for principal bob') }]);
    const small = await create(t, { environment_id: 'small', budget: { max_duration_seconds: 600 } });
    expect(small.body.issues).toEqual([{ path: 'agent_config.budget.max_duration_seconds', message: expect.stringContaining('at most 120, the maximum for environment small') }]);
  });

  it("holds a follow-up's raised cap to the principal's maximum", async () => {
    const run = await create(t, {}, BOB.key);
    const over = await post(t, `/api/v1/agent/runs/${run.body.run_id}/followups`, { message: 'more', budget: { max_duration_seconds: 61 } }, BOB.key);
    expect(over.status).toBe(400);
    expect(over.body.issues).toEqual([{ path: 'budget.max_duration_seconds', message: expect.stringContaining('at most 60') }]);
    const bad = await post(t, `/api/v1/agent/runs/${run.body.run_id}/followups`, { message: 'more', budget: { max_duration_seconds: 0 } }, BOB.key);
    expect(bad.body.issues).toContainEqual({ path: 'budget.max_duration_seconds', message: expect.stringContaining('a whole number from 1 to') });
    const ok = await post(t, `/api/v1/agent/runs/${run.body.run_id}/followups`, { message: 'more', budget: { max_duration_seconds: 50 } }, BOB.key);
    expect(ok.status).toBe(200);
    expect((await t.raw(`/api/v1/agent/runs/${run.body.run_id}`, { key: BOB.key })).body.agent_config.budget).toEqual({ max_duration_seconds: 50 });
  });

  it("carries a named agent's budget to its runs, and holds a schedule's to the maximum when it is made", async () => {
    const agent = await post(t, '/api/v1/agent/identities', { name: 'careful', budget: { max_duration_seconds: 40 } }, BOB.key);
    expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    expect(agent.body.budget).toEqual({ max_duration_seconds: 40 });
    const run = await post(t, '/api/v1/agent/runs', { prompt: 'hello', agent_identity_uid: agent.body.uid }, BOB.key);
    expect((await t.raw(`/api/v1/agent/runs/${run.body.run_id}`, { key: BOB.key })).body.agent_config.budget).toEqual({ max_duration_seconds: 40 });
    const badAgent = await post(t, '/api/v1/agent/identities', { name: 'absurd', budget: { max_tokens: -1 } }, BOB.key);
    expect(badAgent.body.issues).toContainEqual({ path: 'budget.max_tokens', message: expect.stringContaining('a whole number from 1 to') });

    const schedule = { name: 'nightly', cron_schedule: '0 3 * * *', prompt: 'hello', agent_config: { budget: { max_duration_seconds: 61 } } };
    const over = await post(t, '/api/v1/agent/schedules', schedule, BOB.key);
    expect(over.status).toBe(400);
    expect(over.body.issues).toEqual([{ path: 'agent_config.budget.max_duration_seconds', message: expect.stringContaining('at most 60') }]);
    const ok = await post(t, '/api/v1/agent/schedules', { ...schedule, agent_config: { budget: { max_duration_seconds: 60 } } }, BOB.key);
    expect(ok.status, JSON.stringify(ok.body)).toBeLessThan(300);
    expect(ok.body.agent_config.budget).toEqual({ max_duration_seconds: 60 });
  });

  it('refuses a file whose budgets name an environment it does not declare', async () => {
    const configFile = writeServerConfig({ budgets: { environments: { nowhere: { max: { max_cost_usd: 1 } } } } });
    await expect(startServer({ port: 0, storage: 'memory', quiet: true, configFile })).rejects.toThrow(/budgets\.environments\.nowhere.*no environment/);
    const negative = writeServerConfig({ budgets: { max: { max_cost_usd: -1 } } });
    await expect(startServer({ port: 0, storage: 'memory', quiet: true, configFile: negative })).rejects.toThrow(/budgets\.max\.max_cost_usd.*a number from 0\.0001/);
  });
});
