import type { IncomingMessage } from 'node:http';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../packages/cli/test/support/cli-process.js';
import { startForwardingProxy } from '../../support/forwarding-proxy.js';

const KEY = 'list-walk-key-0123456789';
const RUNS = 60;
const PAGE = 10;

let server: RunningServer;
let client: AgentRunsClient;
let proxy: { baseURL: string; close(): Promise<void> };
/** Runs of the current batch still going, oldest first: the ones to change while the walk is under way. */
let going: string[] = [];

/** Before passing on each request for a following page, cancels the two oldest runs still going. */
async function changeRunsMidWalk(req: IncomingMessage): Promise<void> {
  if (req.method === 'GET' && /^\/api\/v1\/agent\/runs\?.*cursor=/.test(req.url ?? '')) {
    for (const id of going.splice(0, 2)) await client.runs.cancel(id);
  }
}

/** RUNS runs that keep going until cancelled, all started, oldest first. */
async function startBatch(label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < RUNS; i++) ids.push((await client.runs.create({ prompt: `${label} ${i} [simulate hang]` })).run_id);
  // Every one started before the walk, so that only the proxy's cancels change them.
  for (const id of ids) {
    while ((await client.runs.get(id)).state !== 'INPROGRESS') await new Promise((resolve) => setTimeout(resolve, 20));
  }
  going = [...ids];
  return ids;
}

beforeAll(async () => {
  server = await startServer({ port: 0, storage: 'memory', quiet: true, concurrency: 200, apiKeys: [{ key: KEY, principal: 'walker' }] });
  client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
  proxy = await startForwardingProxy(server.baseURL, { beforeForward: changeRunsMidWalk });
});

afterAll(async () => {
  await proxy?.close();
  await client?.close();
  await server?.close();
});

describe('walking every run while runs change state', () => {
  it('for await over client.runs.list() sees each of 60 runs exactly once', async () => {
    const ids = await startBatch('for-await');
    const walker = new AgentRunsClient({ baseURL: proxy.baseURL, apiKey: KEY, maxRetries: 0 });
    try {
      const seen: string[] = [];
      for await (const run of walker.runs.list({ limit: PAGE })) seen.push(run.run_id);
      expect(going.length).toBeLessThan(RUNS - 8); // runs did change mid-walk
      expect(seen.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
      expect(new Set(seen).size).toBe(seen.length);
    } finally {
      await walker.close();
    }
  }, 60_000);

  it('list --all lists each of 60 runs exactly once', async () => {
    const before = new Set<string>();
    for await (const run of client.runs.list({ limit: 100 })) before.add(run.run_id);
    const ids = await startBatch('list-all');
    const result = await runCli(['--base-url', proxy.baseURL, 'list', '--all', '--limit', String(PAGE), '--json'], {
      env: { AGENT_RUNS_API_KEY: KEY },
      timeoutMs: 30_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(going.length).toBeLessThan(RUNS - 8);
    const listed = (JSON.parse(result.stdout) as { runs: Array<{ run_id: string }> }).runs.map((r) => r.run_id);
    expect(listed.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    expect(listed.filter((id) => before.has(id)).length).toBe(before.size);
    expect(new Set(listed).size).toBe(listed.length);
  }, 60_000);
});
