import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@agent-runs/server';
import { binEnv, connectStdio, startRunsApi, textOf, type StdioSession } from './support/mcp-harness.js';

/** create_run's and follow_up_run's caps, and create_run's pull_request, through the real MCP client over stdio, against a real local server (no environment takes pull requests). */
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

describe('budget arguments', () => {
  it('create_run takes max_duration_seconds; the blocked run\'s result says how to continue, and follow_up_run raises the cap', async () => {
    const result = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Think long [simulate 5s]', max_duration_seconds: 1, wait: true, timeout: '20s' } });
    const text = textOf(result);
    expect(text).toContain('BLOCKED');
    expect(text).toContain('stopped at its budget');
    expect(text).toContain('follow_up_run with a raised cap');
    const runId = (result.structuredContent as { run_id: string }).run_id;
    const followed = await mcp.client.callTool({ name: 'follow_up_run', arguments: { run_id: runId, message: 'Go on', max_duration_seconds: 600 } });
    expect(followed.isError, textOf(followed)).toBeFalsy();
    const run = (await (await fetch(`${api.baseURL}/agent/runs/${runId}`, { headers: { authorization: `Bearer ${api.apiKey}` } })).json()) as { agent_config: { budget: unknown } };
    expect(run.agent_config.budget).toEqual({ max_duration_seconds: 600 });
  }, 30_000);

  it('names a cap out of range', async () => {
    const result = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Hello', max_cost_usd: -1 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('max_cost_usd');
  });
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
