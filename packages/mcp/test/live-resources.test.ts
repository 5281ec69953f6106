import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningServer } from '@agent-runs/server';
import { binEnv, connectHttp, connectStdio, startCountingProxy, startHttpBin, startRunsApi, type CountingProxy, type HttpBin, type StdioSession } from './support/mcp-harness.js';

let api: RunningServer;
let proxy: CountingProxy;
let stdio: StdioSession;
let http: HttpBin;

beforeAll(async () => {
  api = await startRunsApi();
  proxy = await startCountingProxy(api);
  // A long poll interval: an update that arrives fast came from the run's event stream.
  const env = binEnv(api, { AGENT_RUNS_BASE_URL: proxy.baseURL, AGENT_RUNS_MCP_POLL_INTERVAL: '30s' });
  stdio = await connectStdio(env);
  http = await startHttpBin(env);
});
afterAll(async () => {
  await stdio?.close();
  await http?.close();
  await proxy?.close();
  await api?.close();
});

type Host = { subscribe(uri: string): Promise<string[]>; unsubscribe(uri: string): Promise<void>; client: StdioSession['client'] };

const hosts: Record<string, () => Promise<Host>> = {
  stdio: async () => wrap(stdio.client),
  http: async () => wrap(await connectHttp(http.url)),
};

function wrap(client: StdioSession['client']): Host {
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
  return {
    client,
    subscribe: async (uri) => {
      await client.subscribeResource({ uri });
      return updates;
    },
    unsubscribe: (uri) => client.unsubscribeResource({ uri }).then(() => {}),
  };
}

describe.each(['stdio', 'http'] as const)('agent-run:// resources are live over %s (2025-11-25)', (transport) => {
  it('says so in its capabilities, and updates a subscribed run on each change, from its event stream', async () => {
    const host = await hosts[transport]!();
    expect(host.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const created = await host.client.callTool({ name: 'create_run', arguments: { prompt: 'Live [simulate 600ms]' } });
    const run_id = (created.structuredContent as { run_id: string }).run_id;
    const uri = `agent-run://${run_id}`;
    const updates = await host.subscribe(uri);
    await host.subscribe('agent-run://recent');
    // QUEUED → INPROGRESS → SUCCEEDED within about a second, far inside one 30 s poll.
    await expect.poll(() => updates.filter((u) => u === uri).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    expect(updates).toContain('agent-run://recent');
    // The last update is the terminal run: read after it, the resource says so.
    await expect
      .poll(async () => {
        const read = await host.client.readResource({ uri });
        return JSON.parse((read.contents[0] as { text: string }).text).state;
      }, { timeout: 5_000 })
      .toBe('SUCCEEDED');
    const settled = updates.length;
    expect(settled).toBeGreaterThanOrEqual(3);
    expect(proxy.count(`/agent/runs/${run_id}/events`)).toBeGreaterThan(0);
    await host.unsubscribe(uri);
  });

  it('refuses a URI that is not a run, naming what can be subscribed to', async () => {
    const host = await hosts[transport]!();
    await expect(host.client.subscribeResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/agent-run:\/\/\{run_id\}/);
  });
});
