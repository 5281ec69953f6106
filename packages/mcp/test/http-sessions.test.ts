import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHttpServer } from '@agent-runs/mcp';
import { connectHttp, MCP_POST_HEADERS as HEADERS, startInProcessHttp, type InProcessHttp } from './support/mcp-harness.js';

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

  it('keeps a session whose client holds its stream open', async () => {
    const connected = await connectHttp(mcp.url);
    try {
      await new Promise((resolve) => setTimeout(resolve, 2 * IDLE_MS));
      const { tools } = await connected.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['get_run', 'get_run_conversation', 'get_run_output', 'list_agents', 'list_environments', 'list_models', 'list_runs', 'list_schedules', 'list_skills', 'list_webhooks', 'wait_for_run']);
    } finally {
      await connected.close();
    }
  });
});
