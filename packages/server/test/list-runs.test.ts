import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, BadRequestError, type RunItem } from '@agent-runs/core';
import { tempTree, writeServerConfig } from './support/server-config.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let t: TestServer;
let bob: AgentRunsClient;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const skills = tempTree({ 'skills/audit/SKILL.md': '---\nname: audit\n---\nAudit the code.\n' });
  t = await startTestServer({
    configFile: writeServerConfig({ environments: { 'env-1': {}, 'env-2': {} }, skill_directories: [join(skills, 'skills')] }),
    concurrency: 10,
    // Filters across principals: every key reads every run here.
    sharedRuns: true,
    apiKeys: [
      { key: 'key-of-alice-123', principal: 'alice' },
      { key: 'key-of-bob-45678', principal: 'bob' },
    ],
  });
  bob = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: 'key-of-bob-45678', source: 'CLI' });
  const make = async (name: string, client: AgentRunsClient, body: Parameters<AgentRunsClient['runs']['create']>[0]) => {
    ids[name] = (await client.runs.create(body)).run_id;
  };
  await make('alpha', t.client, { prompt: 'Alpha task [simulate 10ms]', title: 'alpha', config: { name: 'builder', model_id: 'm-fast', environment_id: 'env-1' } });
  await make('bravo', t.client, { prompt: 'Bravo needs a NEEDLE [simulate fail 10ms]', title: 'bravo', config: { name: 'tester', model_id: 'm-slow' } });
  await make('charlie', bob, { prompt: 'Charlie [simulate hang]', title: 'charlie', config: { name: 'auditor', skill_spec: 'skills:audit' } });
  await make('delta', bob, { prompt: 'Delta [simulate error 10ms]', title: 'delta', config: { environment_id: 'env-2' } });
  for (const id of [ids.alpha!, ids.bravo!, ids.delta!]) await t.client.runs.wait(id, { pollInterval: 10 });
});
afterAll(async () => {
  await bob.close();
  await t.close();
});

const titles = (runs: RunItem[]) => runs.map((r) => r.title);
const list = async (query: Parameters<AgentRunsClient['runs']['list']>[0]) => titles((await t.client.runs.list({ limit: 500, ...query })).runs);

describe('listing runs', () => {
  it('sorts by updated_at, newest first, by default', async () => {
    const { runs } = await t.client.runs.list();
    const times = runs.map((r) => Date.parse(r.updated_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it.each([
    ['created_at', 'asc', ['alpha', 'bravo', 'charlie', 'delta']],
    ['created_at', 'desc', ['delta', 'charlie', 'bravo', 'alpha']],
    ['title', 'asc', ['alpha', 'bravo', 'charlie', 'delta']],
    ['title', 'desc', ['delta', 'charlie', 'bravo', 'alpha']],
    ['agent', 'asc', ['delta', 'charlie', 'alpha', 'bravo']],
  ] as const)('sorts by %s %s', async (sort_by, sort_order, expected) => {
    expect(await list({ sort_by, sort_order })).toEqual(expected);
  });

  it.each([
    [{ state: 'FAILED' as const }, ['bravo']],
    [{ state: ['FAILED', 'ERROR'] as ('FAILED' | 'ERROR')[] }, ['bravo', 'delta']],
    [{ name: 'builder' }, ['alpha']],
    [{ config_name: 'tester' }, ['bravo']],
    [{ model_id: 'm-slow' }, ['bravo']],
    [{ creator: 'bob' }, ['charlie', 'delta']],
    [{ source: 'CLI' as const }, ['charlie', 'delta']],
    [{ environment_id: 'env-1' }, ['alpha']],
    [{ skill_spec: 'skills:audit' }, ['charlie']],
    [{ skill: 'skills:audit' }, ['charlie']],
    [{ q: 'needle' }, ['bravo']],
    [{ q: 'AUDIT' }, ['charlie']],
    [{ q: '%' }, []],
    [{ state: 'FAILED' as const, creator: 'alice' }, ['bravo']],
    [{ name: 'auditor', source: 'CLI' as const }, ['charlie']],
  ])('filters by %j', async (filter, expected) => {
    expect(await list({ ...filter, sort_by: 'title', sort_order: 'asc' })).toEqual(expected);
  });

  it('filters by created and updated bounds', async () => {
    const all = (await t.client.runs.list({ sort_by: 'created_at', sort_order: 'asc' })).runs;
    const bravo = all.find((r) => r.title === 'bravo')!;
    expect(await list({ created_after: bravo.created_at, sort_by: 'created_at', sort_order: 'asc' })).toEqual(['charlie', 'delta']);
    expect(await list({ created_before: bravo.created_at, sort_by: 'created_at', sort_order: 'asc' })).toEqual(['alpha']);
    const latest = all.reduce((a, b) => (a.updated_at > b.updated_at ? a : b));
    expect(await list({ updated_after: latest.updated_at })).toEqual([]);
  });

  it('pages through every run with a cursor, for each sort', async () => {
    for (const sort_by of ['updated_at', 'created_at', 'title', 'agent'] as const) {
      const seen: string[] = [];
      for await (const run of t.client.runs.list({ limit: 1, sort_by, sort_order: 'asc' })) seen.push(run.title);
      expect(seen.sort()).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
    }
  });

  it('refuses a cursor made for another sort', async () => {
    const page = await t.client.runs.list({ limit: 1, sort_by: 'title' });
    const cursor = page.pageInfo.next_cursor!;
    await expect(t.client.runs.list({ cursor, sort_by: 'created_at' })).rejects.toBeInstanceOf(BadRequestError);
  });
});

describe('pagination while runs are being created', () => {
  it('returns every run that existed when paging began, exactly once', async () => {
    const server = await startTestServer({ concurrency: 1 });
    try {
      const before: string[] = [];
      for (let i = 0; i < 60; i++) before.push((await server.client.runs.create({ prompt: `p${i} [simulate hang]` })).run_id);
      let stop = false;
      const creating = (async () => {
        while (!stop) await server.client.runs.create({ prompt: 'late [simulate hang]' });
      })();
      const seen: string[] = [];
      for await (const run of server.client.runs.list({ limit: 7, sort_by: 'created_at' })) {
        seen.push(run.run_id);
        await new Promise((r) => setImmediate(r));
      }
      stop = true;
      await creating;
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of before) expect(seen).toContain(id);
      expect(seen.slice(-60)).toEqual([...before].reverse());
    } finally {
      await server.close();
    }
  });
});
