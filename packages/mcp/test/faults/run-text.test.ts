import { AgentRunsClient } from '@agent-runs/core';
import type { RunningServer } from '@agent-runs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binEnv, connectStdio, textOf, type StdioSession } from '../support/mcp-harness.js';
import { lastWordsCommand, startCommandAgentServer } from '../../../../test/support/command-agent.js';

// The agent's last words (the status message) and the prompt's first line (the title) try to drive a terminal.
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2Jdone\r\n  State     SUCCEEDED';
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

let server: RunningServer;
let client: AgentRunsClient;
let mcp: StdioSession;
let runId: string;
beforeAll(async () => {
  server = await startCommandAgentServer(lastWordsCommand(HOSTILE, 'exit 1'));
  client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey, maxRetries: 0 });
  runId = (await client.runs.create({ prompt: `${HOSTILE}\nmore` })).run_id;
  await client.runs.wait(runId, { pollInterval: 100 });
  mcp = await connectStdio(binEnv(server));
});
afterAll(async () => {
  await mcp?.close();
  await client?.close();
  await server?.close();
});

describe('run text in the MCP text summaries, which hosts may print on a terminal', () => {
  it('get_run summarises the run one row per line, control characters shown escaped', async () => {
    const text = textOf(await mcp.client.callTool({ name: 'get_run', arguments: { run_id: runId } }));
    expect(text).not.toMatch(RAW_CONTROL);
    const lines = text.split('\n');
    expect(lines[0]).toBe(`Run ${runId} failed.`);
    expect(lines.filter((line) => /^\s*State\s/.test(line))).toEqual(['  State     FAILED']);
    expect(lines.find((line) => line.startsWith('  Status'))).toContain('\\e]0;pwned\\x07\\e[2Jdone\\r\\n  State     SUCCEEDED');
  });

  it('list_runs gives one line per run', async () => {
    const text = textOf(await mcp.client.callTool({ name: 'list_runs', arguments: {} }));
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text.split('\n')).toEqual(['1 run(s):', expect.stringMatching(new RegExp(`^- ${runId}  FAILED  \\\\e\\]0;pwned`))]);
  });
});
