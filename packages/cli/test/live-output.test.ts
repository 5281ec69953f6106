import { main } from '@agent-runs/cli';
import type { RunningServer } from '@agent-runs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-process.js';
import { capturingIo } from './support/in-process-io.js';
import { startCommandAgentServer } from '../../../test/support/command-agent.js';

const KEY = 'cli-live-key-0123456789';
// A real command agent: two lines apart in time, the second with a clear-screen sequence in it.
const AGENT = "echo 'step one'; sleep 0.3; printf 'wiped\\033[2J\\033]0;title\\007 here\\n'; sleep 0.3; echo 'step two' >&2";

let server: RunningServer;
beforeAll(async () => {
  server = await startCommandAgentServer(AGENT, { concurrency: 8, apiKeys: [{ key: KEY, principal: 'tester' }] });
});
afterAll(() => server.close());

const cli = (args: string[]) => runCli(['--base-url', server.baseURL, ...args], { env: { AGENT_RUNS_API_KEY: KEY } });

describe('agent output while waiting', () => {
  it('prints the output as prefixed lines when piped, escape sequences shown escaped', async () => {
    const result = await cli(['run', 'Do the steps', '--wait']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('agent> step one\n');
    expect(result.stderr).toContain('agent> wiped\\e[2J\\e]0;title\\x07 here\n');
    expect(result.stderr).toContain('agent> step two\n');
    expect(result.stderr).not.toContain('\x1b');
    // In order, and before the final state.
    const order = ['agent> step one', 'agent> wiped', 'agent> step two', ': SUCCEEDED'].map((s) => result.stderr.indexOf(s));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(result.stdout).not.toContain('step one');
  });

  it('hides the output with --quiet', async () => {
    const result = await cli(['run', 'Do the steps', '--wait', '--quiet']);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('step one');
    expect(result.stderr).toMatch(/: SUCCEEDED/);
  });

  it('shows the output under the live status line on a terminal', async () => {
    const { io, out } = capturingIo({ AGENT_RUNS_API_KEY: KEY });
    Object.assign(io.stderr, { isTTY: true, columns: 80 });
    const code = await main(['--base-url', server.baseURL, 'run', 'Do the steps', '--wait'], { io });
    expect(code).toBe(0);
    // Each line is written over the live line, which is then drawn again below it.
    expect(out.stderr).toMatch(/\r\x1b\[2K(\x1b\[2m)?│(\x1b\[22m)? step one\n/);
    expect(out.stderr).toMatch(/│(\x1b\[22m)? wiped\\e\[2J/);
    expect(out.stderr.indexOf(' step two')).toBeLessThan(out.stderr.indexOf('✔'));
    expect(out.stderr.replace(/\x1b\[[0-9;]*[mK]/g, '')).not.toContain('\x1b');
  });

  it('follows an existing run with wait, output included', async () => {
    const created = await cli(['run', 'Do the steps']);
    const runId = created.stdout.trim();
    const result = await cli(['wait', runId]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('agent> step one\n');
  });
});

describe('logs', () => {
  it('prints the stored output of a run on stdout', async () => {
    const runId = JSON.parse((await cli(['run', 'Do the steps', '--wait', '--json'])).stdout).run_id;
    const result = await cli(['logs', runId]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('step one\nwiped\\e[2J\\e]0;title\\x07 here\nstep two\n');
  });

  it('follows the output as it comes with --follow and exits with the outcome', async () => {
    const runId = (await cli(['run', 'Do the steps'])).stdout.trim();
    const result = await cli(['logs', runId, '--follow']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('step one\nwiped\\e[2J\\e]0;title\\x07 here\nstep two\n');
    expect(result.stderr).toMatch(/: SUCCEEDED\n$/);
  });

  it('names an unknown run', async () => {
    const result = await cli(['logs', 'no-such-run']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/no-such-run/);
  });
});
