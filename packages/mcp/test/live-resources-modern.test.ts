import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { AgentRunsClient } from '@agent-runs/core';
import type { RunningServer } from '@agent-runs/server';
import { binEnv, startCountingProxy, startHttpBin, startRunsApi, type CountingProxy, type HttpBin } from './support/mcp-harness.js';
import { connectHttpV2, connectStdioV2 } from './support/v2-clients.js';

const RECENT = 'agent-run://recent';

let api: RunningServer;
let proxy: CountingProxy;
let runs: AgentRunsClient;
let http: HttpBin;
let env: Record<string, string>;

beforeAll(async () => {
  api = await startRunsApi();
  proxy = await startCountingProxy(api);
  runs = new AgentRunsClient({ baseURL: api.baseURL, apiKey: api.apiKey });
  // A long poll interval: an update that arrives fast came from the run's event stream.
  env = binEnv(api, { AGENT_RUNS_BASE_URL: proxy.baseURL, AGENT_RUNS_MCP_POLL_INTERVAL: '30s' });
  http = await startHttpBin(env);
});
afterAll(async () => {
  await http?.close();
  await runs?.close();
  await proxy?.close();
  await api?.close();
});

const connect: Record<'stdio' | 'http', () => Promise<Client>> = {
  stdio: () => connectStdioV2(env, 'modern'),
  http: () => connectHttpV2(http.url, 'modern'),
};

describe.each(['stdio', 'http'] as const)('agent-run:// resources are live over %s (2026-07-28, subscriptions/listen)', (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect[transport]();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('says so in server/discover, and a listen stream hears each change of its run, from the event stream', async () => {
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    const { run_id } = await runs.runs.create({ prompt: `Listen ${transport} [simulate 800ms]` });
    const uri = `agent-run://${run_id}`;
    const subscription = await client.listen({ resourceSubscriptions: [uri, RECENT] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual([uri, RECENT]);
    // QUEUED → INPROGRESS → SUCCEEDED within about a second, far inside one 30 s poll.
    await expect.poll(() => updates.filter((u) => u === uri).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    expect(updates).toContain(RECENT);
    await expect
      .poll(async () => {
        const read = await client.readResource({ uri });
        return JSON.parse((read.contents[0] as { text: string }).text).state;
      }, { timeout: 5_000 })
      .toBe('SUCCEEDED');
    expect(proxy.count(`/agent/runs/${run_id}/events`)).toBeGreaterThan(0);

    // The run's last change may still be on its way from the event stream: close once none has come for a while.
    let seen = -1;
    await expect
      .poll(() => {
        const now = updates.filter((u) => u === uri).length;
        const quiet = now === seen;
        seen = now;
        return quiet;
      }, { interval: 300, timeout: 5_000 })
      .toBe(true);
    // Closed, the stream's run is no longer followed: a follow-up's changes reach no one.
    await subscription.close();
    await expect.poll(() => proxy.count(`/agent/runs/${run_id}/events`), { timeout: 100 }).toBeGreaterThan(0);
    const heard = updates.filter((u) => u === uri).length;
    const followsBefore = proxy.count(`/agent/runs/${run_id}/events`);
    await runs.runs.followup(run_id, { message: 'Once more [simulate 200ms]' });
    await expect.poll(async () => (await runs.runs.get(run_id)).state, { timeout: 5_000 }).toBe('SUCCEEDED');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updates.filter((u) => u === uri).length).toBe(heard);
    expect(proxy.count(`/agent/runs/${run_id}/events`)).toBe(followsBefore);
  });

  it('two streams naming one run each hear a change once', async () => {
    const other = await connect[transport]();
    const heard: Record<string, string[]> = { one: [], two: [] };
    client.setNotificationHandler('notifications/resources/updated', (n) => void heard.one!.push(n.params.uri));
    other.setNotificationHandler('notifications/resources/updated', (n) => void heard.two!.push(n.params.uri));
    const { run_id } = await runs.runs.create({ prompt: `Two streams ${transport} [simulate 600ms]` });
    const uri = `agent-run://${run_id}`;
    const one = await client.listen({ resourceSubscriptions: [uri] });
    const two = await other.listen({ resourceSubscriptions: [uri] });
    await expect.poll(async () => (await runs.runs.get(run_id)).state, { timeout: 5_000 }).toBe('SUCCEEDED');
    await expect.poll(() => heard.one!.length, { timeout: 3_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(() => heard.two!.length, { timeout: 3_000 }).toBeGreaterThanOrEqual(1);
    // Not more updates than the run has states (QUEUED, INPROGRESS, SUCCEEDED): none doubled.
    expect(heard.one!.length).toBeLessThanOrEqual(3);
    expect(heard.two!.length).toBeLessThanOrEqual(3);
    await one.close();
    await two.close();
    await other.close();
  });
});
