import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { AgentRunsClient } from '@agent-runs/core';
import type { RunningServer } from '@agent-runs/server';
import { binEnv, startHttpBin, startRunsApi, textOf, type HttpBin } from './support/mcp-harness.js';
import { connectHttpV2, connectStdioV2, type Era } from './support/v2-clients.js';

const TOKEN = 'a-long-enough-token-for-the-tests-0123456789';

let api: RunningServer;
let http: HttpBin;

beforeAll(async () => {
  api = await startRunsApi();
  http = await startHttpBin(binEnv(api, { AGENT_RUNS_MCP_HEARTBEAT: '100ms' }), ['--auth-token', TOKEN]);
});
afterAll(async () => {
  await http?.close();
  await api?.close();
});

const transports = {
  stdio: (era: Era) => connectStdioV2(binEnv(api, { AGENT_RUNS_MCP_HEARTBEAT: '100ms' }), era),
  http: (era: Era) => connectHttpV2(http.url, era, { authorization: `Bearer ${TOKEN}` }),
};

describe.each(['stdio', 'http'] as const)('the SDK v2 client over %s', (transport) => {
  describe.each(['modern', 'legacy'] as const)('on the %s revision', (era) => {
    let client: Client;
    beforeAll(async () => {
      client = await transports[transport](era);
    });
    afterAll(async () => {
      await client?.close();
    });

    it('speaks the revision it asked for', () => {
      expect(client.getProtocolEra()).toBe(era);
      expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
    });

    it('lists every tool with a title, annotations and an output schema', async () => {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThanOrEqual(15);
      for (const tool of tools) {
        expect(tool.title, tool.name).toBeTruthy();
        expect(tool.annotations?.readOnlyHint, tool.name).toBeTypeOf('boolean');
        expect(tool.outputSchema?.type, tool.name).toBe('object');
      }
    });

    it('starts a run and waits for it with progress', async () => {
      // Runs that hang fill the server's four slots, so the run stays QUEUED until the wait has begun.
      const core = new AgentRunsClient({ baseURL: api.baseURL, apiKey: api.apiKey });
      const blockers = await Promise.all([1, 2, 3, 4].map(() => core.runs.create({ prompt: '[simulate hang]' })));
      const created = await client.callTool({ name: 'create_run', arguments: { prompt: `Both revisions ${transport} ${era} [simulate 400ms]` } });
      const run_id = (created.structuredContent as { run_id: string }).run_id;
      expect(run_id).toBeTruthy();
      const updates: string[] = [];
      const waiting = client.callTool({ name: 'wait_for_run', arguments: { run_id } }, {
        onprogress: (p) => updates.push(p.message ?? ''),
        resetTimeoutOnProgress: true,
      });
      await expect.poll(() => updates.some((m) => m.startsWith('QUEUED · '))).toBe(true);
      await Promise.all(blockers.map((b) => core.runs.cancel(b.run_id)));
      const waited = await waiting;
      await core.close();
      expect(waited.structuredContent).toMatchObject({ run_id, finished: true, run: { state: 'SUCCEEDED' } });
      expect(textOf(waited)).toContain(`Run ${run_id} succeeded.`);
      // The terminal state's own notification is pinned on the wire in stdio-wait.test.ts: a client
      // drops one that arrives in the same read as the result.
      expect(updates.some((m) => m.startsWith('INPROGRESS · '))).toBe(true);
    });

    it('reads a run as a resource', async () => {
      const { resources } = await client.listResources();
      const uri = resources.find((r) => r.uri.startsWith('agent-run://'))?.uri ?? 'agent-run://recent';
      const read = await client.readResource({ uri });
      expect(read.contents[0]?.mimeType).toBe('application/json');
    });
  });
});

describe('the HTTP guard on the 2026-07-28 revision', () => {
  const discover = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'server/discover',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
  });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' };

  it('refuses an enveloped request without the token', async () => {
    const answer = await fetch(http.url, { method: 'POST', headers, body: discover });
    expect(answer.status).toBe(401);
  });

  it('refuses an enveloped request from a foreign origin', async () => {
    const answer = await fetch(http.url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' }, body: discover });
    expect(answer.status).toBe(403);
  });

  it('answers server/discover with the token', async () => {
    const answer = await fetch(http.url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${TOKEN}` }, body: discover });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('2026-07-28');
  });
});
