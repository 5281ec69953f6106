import { main } from '@agent-runs/cli';
import { AgentRunsClient, type RunItem } from '@agent-runs/core';
import type { RunningServer } from '@agent-runs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.js';
import { capturingIo } from '../support/in-process-io.js';
import { lastWordsCommand, startCommandAgentServer } from '../../../../test/support/command-agent.js';

const KEY = 'cli-escapes-key-0123456789';

// Clear screen, set the window title, an OSC 8 link that hides its target, and a forged line.
const HOSTILE = '\u001b[2J\u001b]0;pwned\u0007\u001b]8;;http://evil.example\u001b\\click here\u001b]8;;\u001b\\\r\nState      SUCCEEDED';
// The prompt's first line becomes the title; the agent's last words become the status message.
const PROMPT = `${HOSTILE}\nthe rest of the prompt \u009b31m`;

/** Anything a terminal would act on: C0 controls but the line feed, DEL, C1. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

let server: RunningServer;
let client: AgentRunsClient;
let run: RunItem;
beforeAll(async () => {
  // Long enough for the live line to draw the run while it goes.
  server = await startCommandAgentServer(lastWordsCommand(HOSTILE, 'sleep 1; exit 1'), {
    apiKeys: [{ key: KEY, principal: 'tester' }],
  });
  client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
  const created = await client.runs.create({ prompt: PROMPT });
  run = await client.runs.wait(created.run_id, { pollInterval: 100 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const cli = (args: string[]) => runCli(['--base-url', server.baseURL, ...args], { env: { AGENT_RUNS_API_KEY: KEY } });

describe('server fields on the terminal', () => {
  it('list shows a title full of escape sequences escaped, on one line', async () => {
    expect(run.title).toContain('\u001b'); // the server kept the escapes: the command line is the defence here
    const result = await cli(['list']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    const row = result.stdout.split('\n').find((line) => line.startsWith(run.run_id))!;
    expect(row).toContain('\\e[2J\\e]0;pwned\\x07\\e]8;;http://evil.example\\e\\click here');
    expect(result.stdout.split('\n').filter((line) => line.includes('SUCCEEDED'))).toEqual([]);
  });

  it('get shows the title, prompt and status message escaped, with no forged line', async () => {
    const result = await cli(['get', run.run_id]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    const lines = result.stdout.split('\n');
    const status = lines.find((line) => line.trimStart().startsWith('Status'))!;
    expect(status).toContain('\\e]8;;http://evil.example\\e\\click here\\e]8;;\\e\\\\r\\nState      SUCCEEDED');
    const prompt = lines.find((line) => line.trimStart().startsWith('Prompt'))!;
    expect(prompt).toContain('\\e]0;pwned\\x07');
    expect(prompt).toContain('the rest of the prompt \\x9b31m');
    // No line of its own claims a state: the forged "State SUCCEEDED" stays inside its field.
    expect(lines.filter((line) => /^\s*State\s/.test(line))).toEqual([expect.stringMatching(/^\s*State\s+FAILED$/)]);
  });

  it('wait prints the status message escaped on its state line', async () => {
    const result = await cli(['wait', run.run_id]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    expect(result.stderr).toMatch(/^run \S+: FAILED \(\d[\dhms]*\): The agent command exited with code 1: \\e\[2J\\e\]0;pwned\\x07/m);
  });

  it('the live status line draws a running run with its title escaped', async () => {
    const created = await client.runs.create({ prompt: PROMPT });
    const { io, out } = capturingIo({ AGENT_RUNS_API_KEY: KEY, FORCE_COLOR: '1' });
    Object.assign(io.stderr, { isTTY: true, columns: 200 });
    const code = await main(['--base-url', server.baseURL, 'wait', created.run_id, '--poll-interval', '100ms'], { io });
    expect(code).not.toBe(0);
    expect(out.stderr).toContain('\\e[2J\\e]0;pwned\\x07');
    // What the line itself sends (erase line, colours) is all that reaches the terminal.
    const own = out.stderr.replace(/\r\u001b\[2K/g, '').replace(/\u001b\[\d+m/g, '');
    expect(own).not.toMatch(RAW_CONTROL);
  });
});
