import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@agent-runs/server';
import { binEnv, connectStdio, startRunsApi, textOf, type StdioSession } from './support/mcp-harness.js';

/** create_run's pull_request, through the real MCP client over stdio, against a real local server (no environment takes pull requests). */
let api: RunningServer;
let mcp: StdioSession;
beforeAll(async () => {
  api = await startRunsApi();
  mcp = await connectStdio(binEnv(api));
});
afterAll(async () => {
  await mcp?.close();
  await api?.close();
});

describe('create_run pull_request', () => {
  it('sets config.pull_request; the server refuses one where no repository takes it, naming the field', async () => {
    const refused = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Fix it', pull_request: 'ready' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/config\.pull_request: a run with no environment_id has no repository with pull_requests settings/);
    const off = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Fix it', pull_request: 'off' } });
    expect(off.isError, textOf(off)).toBeFalsy();
    const runId = (off.structuredContent as { run_id: string }).run_id;
    const run = (await (await fetch(`${api.baseURL}/agent/runs/${runId}`, { headers: { authorization: `Bearer ${api.apiKey}` } })).json()) as { agent_config: { pull_request?: string } };
    expect(run.agent_config.pull_request).toBe('off');
  }, 30_000);

  it('names a value it does not take', async () => {
    const result = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Hello', pull_request: 'yes' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('pull_request');
  });
});
