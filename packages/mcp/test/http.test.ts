import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningServer } from '@agent-runs/server';
import { binEnv, connectHttp, startHttpBin, startRunsApi, textOf, type HttpBin } from './support/mcp-harness.js';

const TOKEN = 'mcp-test-token-123';
let api: RunningServer;
let open: HttpBin;
let guarded: HttpBin;

beforeAll(async () => {
  api = await startRunsApi();
  [open, guarded] = await Promise.all([
    startHttpBin(binEnv(api, { AGENT_RUNS_MCP_HEARTBEAT: '100ms' })),
    startHttpBin(binEnv(api, { AGENT_RUNS_MCP_AUTH_TOKEN: TOKEN }), ['--read-only']),
  ]);
});

afterAll(async () => {
  await Promise.all([open?.close(), guarded?.close()]);
  await api?.close();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw initialize POST with chosen headers, for what the SDK client would never send. */
function rawInitialize(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        // Errors are JSON-RPC bodies; keep their message, or the raw text of anything else.
        res.on('end', () => {
          let message = body;
          try {
            message = JSON.parse(body).error?.message ?? body;
          } catch {
            // An SSE stream or other text: keep it as it is.
          }
          resolve({ status: res.statusCode ?? 0, body: message });
        });
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

describe('Streamable HTTP', () => {
  it('binds to 127.0.0.1 by default', () => {
    expect(new URL(open.url).hostname).toBe('127.0.0.1');
    expect(new URL(open.url).pathname).toBe('/mcp');
  });

  it('serves every tool to the SDK client, with progress on waits', async () => {
    const client = await connectHttp(open.url);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(22);
      const created = await client.callTool({ name: 'create_run', arguments: { prompt: 'Over HTTP [simulate 500ms]' } });
      const { run_id } = created.structuredContent as { run_id: string };
      const messages: string[] = [];
      const waited = await client.callTool({ name: 'wait_for_run', arguments: { run_id } }, undefined, {
        onprogress: (p) => messages.push(p.message ?? ''),
      });
      expect(waited.structuredContent).toMatchObject({ finished: true, run: { state: 'SUCCEEDED' } });
      expect(messages.filter((m) => m.startsWith('INPROGRESS · ')).length).toBeGreaterThanOrEqual(2);
      const got = await client.callTool({ name: 'get_run', arguments: { run_id } });
      expect(textOf(got)).toContain('succeeded');
    } finally {
      await client.close();
    }
  });

  it('runs wait_for_run as a task over HTTP', async () => {
    const client = await connectHttp(open.url);
    try {
      const created = await client.callTool({ name: 'create_run', arguments: { prompt: 'Task over HTTP [simulate 200ms]' } });
      const { run_id } = created.structuredContent as { run_id: string };
      const stream = client.experimental.tasks.callToolStream(
        { name: 'wait_for_run', arguments: { run_id } },
        CallToolResultSchema,
        { task: { ttl: 60_000 }, onprogress: () => {} },
      );
      let last: { type: string; result?: { structuredContent?: unknown } } | undefined;
      for await (const message of stream) last = message as typeof last;
      expect(last?.type).toBe('result');
      expect(last?.result?.structuredContent).toMatchObject({ finished: true, run: { state: 'SUCCEEDED' } });
    } finally {
      await client.close();
    }
  });

  it('rejects a Host header that does not name this server (DNS rebinding)', async () => {
    const answer = await rawInitialize(open.url, { host: `evil.example:${new URL(open.url).port}` });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('Host "evil.example');
  });

  it('rejects a foreign Origin and accepts a local one', async () => {
    const foreign = await rawInitialize(open.url, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain('Origin "https://evil.example" is not allowed');
    const local = await rawInitialize(open.url, { origin: `http://localhost:${new URL(open.url).port}` });
    expect(local.status).toBe(200);
  });

  it('asks for a session before anything but initialize', async () => {
    const client = await fetch(open.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(client.status).toBe(400);
    expect(await client.text()).toContain('send initialize first');
  });
});

describe('bearer token', () => {
  it('refuses requests without the token', async () => {
    const answer = await rawInitialize(guarded.url, {});
    expect(answer.status).toBe(401);
    expect(answer.body).toContain('bearer token');
    const wrong = await rawInitialize(guarded.url, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
  });

  it('serves a client that sends the token', async () => {
    const client: Client = await connectHttp(guarded.url, { authorization: `Bearer ${TOKEN}` });
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});

describe('--read-only', () => {
  it('registers only the tools that change nothing', async () => {
    const client = await connectHttp(guarded.url, { authorization: `Bearer ${TOKEN}` });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['get_run', 'get_run_conversation', 'get_run_output', 'list_agents', 'list_environments', 'list_models', 'list_runs', 'list_schedules', 'list_skills', 'list_webhooks', 'list_workers', 'wait_for_run']);
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
      const refused = await client.callTool({ name: 'create_run', arguments: { prompt: 'nope' } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('create_run not found');
    } finally {
      await client.close();
    }
  });
});
