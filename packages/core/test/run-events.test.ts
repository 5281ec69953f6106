import { AgentRunsClient, type RunItem, type RunStreamEvent } from '@agent-runs/core';
import type { RunningServer } from '@agent-runs/server';
import { startCommandAgentServer } from '../../../test/support/command-agent.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForwardingProxy, type ForwardingProxy } from '../../../test/support/forwarding-proxy.js';

// A real command agent that prints a numbered line, then waits, five times.
const SLOW_AGENT = 'for i in 1 2 3 4 5; do echo "line $i"; sleep 0.3; done';
const EXPECTED = 'line 1\nline 2\nline 3\nline 4\nline 5\n';

let server: RunningServer;
let client: AgentRunsClient;
beforeAll(async () => {
  server = await startCommandAgentServer(SLOW_AGENT, { concurrency: 4 });
  client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey, maxRetries: 0 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const clientFor = (baseURL: string) => new AgentRunsClient({ baseURL, apiKey: server.apiKey, maxRetries: 0 });
const output = (events: RunStreamEvent[]) => events.map((e) => (e.type === 'output' ? e.data.text : '')).join('');
const ids = (events: RunStreamEvent[]) => events.flatMap((e) => (e.id === undefined ? [] : [e.id]));

describe('client.runs.events', () => {
  it('yields typed run and output events as they happen and ends after the terminal run', async () => {
    const { run_id } = await client.runs.create({ prompt: 'print' });
    const events: RunStreamEvent[] = [];
    let sawLineBeforeEnd = false;
    for await (const event of client.runs.events(run_id)) {
      events.push(event);
      if (event.type === 'output' && event.data.text === 'line 1\n') {
        sawLineBeforeEnd = (await client.runs.get(run_id)).state === 'INPROGRESS';
      }
    }
    expect(sawLineBeforeEnd).toBe(true);
    expect(output(events)).toBe(EXPECTED);
    expect(events.filter((e) => e.type === 'output').map((e) => (e as { data: { text: string } }).data.text)).toEqual(EXPECTED.split(/(?<=\n)/));
    const runs = events.filter((e): e is Extract<RunStreamEvent, { type: 'run' }> => e.type === 'run');
    expect(runs.map((e) => e.data.state)).toEqual(['QUEUED', 'INPROGRESS', 'SUCCEEDED']);
    expect(ids(events)).toEqual(ids(events).map((_, i) => i + 1));
  });

  it('resumes from lastEventId after the caller stops, missing and repeating nothing', async () => {
    const { run_id } = await client.runs.create({ prompt: 'print' });
    const first: RunStreamEvent[] = [];
    for await (const event of client.runs.events(run_id)) {
      first.push(event);
      if (output(first).includes('line 2')) break;
    }
    await new Promise((r) => setTimeout(r, 400));
    const rest: RunStreamEvent[] = [];
    for await (const event of client.runs.events(run_id, { lastEventId: ids(first).at(-1)! })) rest.push(event);
    const all = [...first, ...rest];
    expect(ids(all)).toEqual(ids(all).map((_, i) => i + 1));
    expect(output(all)).toBe(EXPECTED);
  });

  it('reconnects with Last-Event-ID on its own when the connection drops mid-run', async () => {
    const proxy = await startForwardingProxy(server.baseURL);
    const viaProxy = clientFor(proxy.baseURL);
    try {
      // Each connection is cut after 1 KB: the stream is resumed several times.
      proxy.setOptions({ cutEventsAfterBytes: 1024 });
      const { run_id } = await viaProxy.runs.create({ prompt: 'print' });
      const events: RunStreamEvent[] = [];
      for await (const event of viaProxy.runs.events(run_id)) events.push(event);
      expect(proxy.requests.filter((p) => p.endsWith('/events')).length).toBeGreaterThan(1);
      expect(ids(events)).toEqual(ids(events).map((_, i) => i + 1));
      expect(output(events)).toBe(EXPECTED);
      expect(events.at(-1)).toMatchObject({ type: 'run', data: { state: 'SUCCEEDED' } });
    } finally {
      await viaProxy.close();
      await proxy.close();
    }
  });

  it('falls back to polling against a server without the stream, and remembers', async () => {
    const proxy = await startForwardingProxy(server.baseURL);
    proxy.setOptions({ refuseEvents: true });
    const viaProxy = clientFor(proxy.baseURL);
    try {
      const { run_id } = await viaProxy.runs.create({ prompt: 'print' });
      const events: RunStreamEvent[] = [];
      for await (const event of viaProxy.runs.events(run_id, { pollInterval: 50, maxPollInterval: 100 })) events.push(event);
      expect(events.every((e) => e.type === 'run' && e.id === undefined)).toBe(true);
      expect(events.at(-1)).toMatchObject({ type: 'run', data: { state: 'SUCCEEDED' } });
      const tried = proxy.requests.filter((p) => p.endsWith('/events')).length;
      expect(tried).toBe(1);

      const updates: string[] = [];
      const second = await viaProxy.runs.create({ prompt: 'print' });
      const done = await viaProxy.runs.wait(second.run_id, { pollInterval: 50, maxPollInterval: 100, onUpdate: ({ run }) => void updates.push(run.state) });
      expect(done.state).toBe('SUCCEEDED');
      expect(updates.at(-1)).toBe('SUCCEEDED');
      // The second wait went straight to polling.
      expect(proxy.requests.filter((p) => p.endsWith('/events')).length).toBe(tried);
    } finally {
      await viaProxy.close();
      await proxy.close();
    }
  });

  it('throws NotFoundError for an unknown run rather than polling forever', async () => {
    const iterate = async () => {
      for await (const _ of client.runs.events('no-such-run')) void _;
    };
    await expect(iterate()).rejects.toMatchObject({ status: 404 });
  });
});

describe('client.runs.wait on the stream', () => {
  it('reports each change and the output, and returns the terminal run', async () => {
    const { run_id } = await client.runs.create({ prompt: 'print' });
    const updates: RunItem[] = [];
    let text = '';
    const run = await client.runs.wait(run_id, { onUpdate: ({ run }) => void updates.push(run), onOutput: (o) => void (text += o.text) });
    expect(run.state).toBe('SUCCEEDED');
    expect(text).toBe(EXPECTED);
    expect(updates.map((r) => r.state)).toEqual(['QUEUED', 'INPROGRESS', 'SUCCEEDED']);
  });

  it('times out with a WaitTimeoutError carrying the last run seen', async () => {
    const { run_id } = await client.runs.create({ prompt: 'print' });
    // Its first line out, it runs a second more: on a busy machine it may not have started within the timeout.
    for await (const event of client.runs.events(run_id)) if (event.type === 'output') break;
    const error = await client.runs.wait(run_id, { timeout: 300 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'WaitTimeoutError', lastRun: { state: 'INPROGRESS' } });
    await client.runs.wait(run_id);
  });

  it('stops at once when the signal aborts', async () => {
    const { run_id } = await client.runs.create({ prompt: 'print' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(client.runs.wait(run_id, { signal: controller.signal })).rejects.toMatchObject({ name: 'APIUserAbortError' });
    await client.runs.wait(run_id);
  });
});

describe('client.runs.output', () => {
  it('reads the stored output after an event id', async () => {
    const { run_id } = await client.runs.create({ prompt: 'print' });
    await client.runs.wait(run_id);
    const all = await client.runs.output(run_id);
    expect(all.text).toBe(EXPECTED);
    const later = await client.runs.output(run_id, { since: all.chunks[1]!.id });
    expect(later.text).toBe('line 3\nline 4\nline 5\n');
  });
});
