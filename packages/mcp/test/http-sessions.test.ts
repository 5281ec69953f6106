import { AgentRunsClient } from '@agent-runs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHttpServer } from '@agent-runs/mcp';
import { MCP_POST_HEADERS as HEADERS, startInProcessHttp, type InProcessHttp } from './support/mcp-harness.js';

const IDLE_MS = 1_500;
let served: InProcessHttp;
let mcp: RunningHttpServer;

beforeAll(async () => {
  // Longer than a loaded machine's client takes between its initialize and its next request.
  served = await startInProcessHttp({ sessionIdleMs: IDLE_MS });
  ({ mcp } = served);
});

afterAll(async () => {
  await served?.close();
});

async function post(body: object, sessionId?: string): Promise<Response> {
  const res = await fetch(mcp.url, {
    method: 'POST',
    headers: { ...HEADERS, ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } : {}) },
    body: JSON.stringify(body),
  });
  return res;
}

describe('HTTP sessions', () => {
  it('closes a session whose client went away without a word', async () => {
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'gone', version: '1' } },
    });
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    expect(sessionId).toBeTruthy();
    const alive = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
    expect(alive.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 3 * IDLE_MS));
    const late = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, sessionId);
    expect(late.status).toBe(404);
    expect(await late.text()).toContain('start a new one with initialize');
  });

  it('closes a session whose client only holds its GET stream, once idle since its last request', async () => {
    const sessionId = await opened('listener');
    const listening = Date.now();
    const stream = await fetch(mcp.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      signal: AbortSignal.timeout(15_000),
    });
    expect([stream.status, stream.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    // The stream ends when the session is closed under it (an abort, after 15 s, would throw here).
    await stream.text();
    expect(Date.now() - listening).toBeGreaterThan(IDLE_MS);
    const late = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, sessionId);
    expect(late.status).toBe(404);
  });

  it('keeps a session while a call in it runs past the idle time', async () => {
    const api = new AgentRunsClient({ baseURL: served.api.baseURL, apiKey: served.api.apiKey, maxRetries: 0 });
    const run = await api.runs.create({ prompt: 'hold [simulate hang]' });
    await api.close();
    const sessionId = await opened('waiter');
    const started = Date.now();
    const wait = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait_for_run', arguments: { run_id: run.run_id, timeout: '5s' } } }, sessionId);
    expect(await wait.text()).toContain('"result"');
    expect(Date.now() - started).toBeGreaterThan(3 * IDLE_MS);
    const after = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, sessionId);
    expect(after.status).toBe(200);
    await after.text();
  });
});

/** A new session, initialized, with no request open: its id. */
async function opened(name: string): Promise<string> {
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } } });
  const sessionId = init.headers.get('mcp-session-id')!;
  await init.text();
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId)).status).toBe(202);
  return sessionId;
}
