import { spawnSync } from 'node:child_process';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningHttpServer } from '@agent-runs/mcp';
import type { RunningServer } from '@agent-runs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  binEnv,
  connectHttp,
  MCP_POST_HEADERS as HEADERS,
  startHttpBin,
  startInProcessHttp,
  type InProcessHttp,
} from '../support/mcp-harness.js';

let served: InProcessHttp;
let api: RunningServer;
let mcp: RunningHttpServer;

beforeAll(async () => {
  served = await startInProcessHttp({ maxSessions: 2 });
  ({ api, mcp } = served);
});

afterAll(async () => {
  await served?.close();
});

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'many', version: '1' } },
};

function runBin(args: string[], extra: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BIN, ...args], { env: binEnv(api, extra), encoding: 'utf8', timeout: 10_000 });
}

describe('MCP over HTTP: sessions are capped', () => {
  it('answers an initialize past --max-sessions with 503 and a clear error, and takes one again once a session ends', async () => {
    const first = await connectHttp(mcp.url);
    const second = await connectHttp(mcp.url);
    try {
      const over = await fetch(mcp.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize) });
      expect(over.status).toBe(503);
      expect(over.headers.get('retry-after')).toBe('30');
      const body = (await over.json()) as { error: { code: number; message: string } };
      expect(body.error.message).toMatch(/^Too many sessions: this server holds at most 2 at once \(--max-sessions\)/);
      // The sessions already open still work.
      expect((await first.listTools()).tools.length).toBeGreaterThan(0);
      // Ending a session (DELETE) frees its place.
      await (second.transport as StreamableHTTPClientTransport).terminateSession();
      await second.close();
      const third = await connectHttp(mcp.url);
      await third.close();
    } finally {
      await first.close();
    }
  });

  it('refuses a --max-sessions that is not a positive whole number, naming the flag or the variable', () => {
    const flag = runBin(['--http', '--max-sessions', '0']);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain('--max-sessions must be a whole number from 1 to 100000, got "0"');
    const variable = runBin(['--http'], { AGENT_RUNS_MCP_MAX_SESSIONS: 'lots' });
    expect(variable.status).toBe(2);
    expect(variable.stderr).toContain('AGENT_RUNS_MCP_MAX_SESSIONS must be a whole number from 1 to 100000, got "lots"');
  });
});

describe('MCP over HTTP: a body that is not JSON', () => {
  it('gets JSON-RPC parse error -32700', async () => {
    const res = await fetch(mcp.url, { method: 'POST', headers: HEADERS, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; message: string }; id: null };
    expect(body).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: expect.stringMatching(/^Parse error/) }, id: null });
  });
});

describe('MCP over HTTP: the auth token', () => {
  it('refuses an empty --auth-token instead of serving without one', () => {
    const result = runBin(['--http', '--port', '0', '--auth-token', '']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--auth-token must be at least 16 characters (it is empty)');
    expect(result.stderr).not.toContain('serving MCP');
  });

  it('refuses an empty AGENT_RUNS_MCP_AUTH_TOKEN, naming the variable', () => {
    const result = runBin(['--http', '--port', '0'], { AGENT_RUNS_MCP_AUTH_TOKEN: '  ' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('AGENT_RUNS_MCP_AUTH_TOKEN must be at least 16 characters (it is empty)');
  });

  it('refuses a short token without showing it', () => {
    const result = runBin(['--http', '--port', '0', '--auth-token', 'hunter2']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--auth-token must be at least 16 characters (got 7)');
    expect(result.stderr).not.toContain('hunter2');
  });

  it('serves with a long enough token and requires it', async () => {
    const token = 'a-token-of-enough-length-0123456789';
    const bin = await startHttpBin(binEnv(api, { AGENT_RUNS_MCP_AUTH_TOKEN: token }));
    try {
      expect(bin.stderr()).toContain('(bearer token required)');
      const anonymous = await fetch(bin.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize) });
      expect(anonymous.status).toBe(401);
      const connected = await connectHttp(bin.url, { authorization: `Bearer ${token}` });
      await connected.close();
    } finally {
      await bin.close();
    }
  });
});

describe('MCP over HTTP: open streams are capped', () => {
  it('refuses a --max-client-streams or --max-session-streams that is not a positive whole number, naming the flag or the variable', () => {
    const flag = runBin(['--http', '--max-client-streams', '0']);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain('--max-client-streams must be a whole number from 1 to 100000, got "0"');
    const variable = runBin(['--http'], { AGENT_RUNS_MCP_MAX_SESSION_STREAMS: 'many' });
    expect(variable.status).toBe(2);
    expect(variable.stderr).toContain('AGENT_RUNS_MCP_MAX_SESSION_STREAMS must be a whole number from 1 to 100000, got "many"');
  });
});
