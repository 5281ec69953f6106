import { AgentRunsClient, PROMPT_MAX_CHARS } from '@agent-runs/core';
import type { RunningServer } from '@agent-runs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binEnv, connectStdio, startRunsApi, textOf, type StdioSession } from '../support/mcp-harness.js';

// The largest prompts the server takes, each with a token in the middle that shows where its text went.
const HALF = Math.floor((PROMPT_MAX_CHARS - 100) / 2);
const bigPrompt = (i: number) => `Run ${i} [simulate 100ms]\n${'x'.repeat(HALF)}MIDDLE-${i}${'y'.repeat(HALF)}`;
const RUNS = 20;

let api: RunningServer;
let client: AgentRunsClient;
let mcp: StdioSession;
const ids: string[] = [];

beforeAll(async () => {
  api = await startRunsApi();
  client = new AgentRunsClient({ baseURL: api.baseURL, apiKey: api.apiKey, maxRetries: 0 });
  for (let i = 0; i < RUNS; i++) ids.push((await client.runs.create({ prompt: bigPrompt(i) })).run_id);
  mcp = await connectStdio(binEnv(api));
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await client?.close();
  await api?.close();
});

const count = (text: string, token: string) => text.split(token).length - 1;

describe('MCP results stay small whatever the runs hold', () => {
  it('get_run gives the prompt once, cut with a marker that points at the full text', async () => {
    const result = await mcp.client.callTool({ name: 'get_run', arguments: { run_id: ids[0] } });
    const whole = JSON.stringify(result);
    expect(whole.length).toBeLessThan(50_000);
    const run = result.structuredContent as { prompt: string; run_id: string };
    expect(run.run_id).toBe(ids[0]);
    expect(run.prompt).toMatch(
      new RegExp(`\\n…\\[truncated: 8000 of ${bigPrompt(0).length} characters shown; the full text is in agent-run://${ids[0]}\\]$`),
    );
    // Not repeated in the text summary either.
    expect(count(whole, 'xxxxxxxxxxxxxxxxxxxx')).toBeLessThanOrEqual(1 + Math.ceil(8000 / 20));
    expect(textOf(result)).not.toContain('xxxxxxxxxx'.repeat(20));
  });

  it('the run resource the marker names holds the full prompt', async () => {
    const read = await mcp.client.readResource({ uri: `agent-run://${ids[1]}` });
    const run = JSON.parse((read.contents[0] as { text: string }).text) as { prompt: string };
    expect(run.prompt).toBe(bigPrompt(1));
    expect(count(run.prompt, 'MIDDLE-1')).toBe(1);
  });

  it('agent-run://recent lists twenty runs of the largest prompts in one small message', async () => {
    const read = await mcp.client.readResource({ uri: 'agent-run://recent' });
    const text = (read.contents[0] as { text: string }).text;
    expect(text.length).toBeLessThan(100_000);
    const body = JSON.parse(text) as { runs: Array<{ run_id: string; prompt: string }> };
    expect(body.runs.map((r) => r.run_id).sort()).toEqual([...ids].sort());
    for (const run of body.runs) expect(run.prompt).toContain(`the full text is in agent-run://${run.run_id}]`);
  });

  it('list_runs with the largest page stays small', async () => {
    const result = await mcp.client.callTool({ name: 'list_runs', arguments: { limit: 100 } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result).length).toBeLessThan(150_000);
    expect((result.structuredContent as { runs: unknown[] }).runs).toHaveLength(RUNS);
  });

  it('wait_for_run returns the run bounded too', async () => {
    const result = await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id: ids[2], timeout: '30s' } });
    expect(JSON.stringify(result).length).toBeLessThan(50_000);
    expect((result.structuredContent as { run: { prompt: string } }).run.prompt).toContain('[truncated: 8000 of');
  });
});
