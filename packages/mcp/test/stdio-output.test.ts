import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@agent-runs/server';
import { startCommandAgentServer } from '../../../test/support/command-agent.js';
import { binEnv, connectStdio, textOf, type StdioSession } from './support/mcp-harness.js';

// A real command agent printing its steps slowly; one line carries an escape sequence.
const AGENT = "echo 'Cloning the repository'; sleep 1.2; printf 'Running \\033[31mthe tests\\n'; sleep 1.2; echo 'Opened a pull request'";

let api: RunningServer;
let mcp: StdioSession;
beforeAll(async () => {
  api = await startCommandAgentServer(AGENT, { concurrency: 4 });
  mcp = await connectStdio(binEnv(api, { AGENT_RUNS_MCP_HEARTBEAT: '5s' }));
});
afterAll(async () => {
  await mcp?.close();
  await api?.close();
});

async function createRun(): Promise<string> {
  const result = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Fix the tests' } });
  return (result.structuredContent as { run_id: string }).run_id;
}

describe('agent output over MCP', () => {
  it('puts the newest output line in the progress notifications of wait_for_run', async () => {
    const run_id = await createRun();
    const messages: string[] = [];
    const result = await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id } }, undefined, {
      onprogress: (p) => messages.push(p.message ?? ''),
      resetTimeoutOnProgress: true,
    });
    expect((result.structuredContent as { run?: { state: string } }).run?.state).toBe('SUCCEEDED');
    // The heartbeat is 5 s, so these came with the output itself.
    expect(messages).toContainEqual(expect.stringMatching(/^INPROGRESS · \d+m?s · Cloning the repository$/));
    expect(messages).toContainEqual(expect.stringMatching(/^INPROGRESS · \d+m?s · Running \\e\[31mthe tests$/));
    expect(messages.join('\n')).not.toContain('\x1b');
  });

  it('returns the last lines of output from get_run_output', async () => {
    const run_id = await createRun();
    await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id } });
    const result = await mcp.client.callTool({ name: 'get_run_output', arguments: { run_id, lines: 2 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      run_id,
      text: 'Running \\e[31mthe tests\nOpened a pull request',
      lines: 2,
      omitted_lines: 1,
    });
    expect(textOf(result)).toBe('(1 earlier lines not shown)\nRunning \\e[31mthe tests\nOpened a pull request');
  });

  it('names an unknown run', async () => {
    const result = await mcp.client.callTool({ name: 'get_run_output', arguments: { run_id: 'no-such-run' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/no-such-run/);
  });
});
