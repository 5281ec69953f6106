import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunItemSchema } from '@agent-runs/core';
import { main } from '@agent-runs/cli';
import { runCli, stderrIncludes } from './support/cli-process.js';
import { capturingIo } from './support/in-process-io.js';
import { startTestServer, TEST_KEY } from './support/local-server.js';

let local: Awaited<ReturnType<typeof startTestServer>>;
// Polling every 100 ms keeps the waits short; everything else is as a user runs it.
const cli = (args: string[], options: Parameters<typeof runCli>[1] = {}) =>
  runCli([...local.target, ...args, ...(/^(run|wait)$/.test(args[0]!) ? ['--poll-interval', '100ms'] : [])], {
    ...options,
    env: { ...local.env, ...options.env },
  });

/** The built main() in this process, for checks that do not need a process of their own. */
async function inProcess(args: string[]) {
  const { io, out } = capturingIo({ AGENT_RUNS_API_KEY: TEST_KEY });
  const code = await main([...local.target, ...args], { io });
  return { code, ...out };
}

beforeAll(async () => {
  // The server knows the environment and the worker the configuration test names.
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-cli-'));
  writeFileSync(join(dir, 'worker-token'), 'cli-test-worker-token-0123456789');
  writeFileSync(
    join(dir, 'server.json'),
    JSON.stringify({ environments: { 'env-7': {} }, workers: { w1: { token: { from_file: 'worker-token' }, worker_hosts: ['w1'] } } }),
  );
  local = await startTestServer({ configFile: join(dir, 'server.json') });
});
afterAll(async () => {
  await local?.close();
});

describe('run --wait', () => {
  it('follows a run to SUCCEEDED, prints the summary with the session link and exits 0', async () => {
    const result = await cli(['run', 'Say hello [simulate 100ms]', '--wait', '--title', 'Greeting']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Run \S+ succeeded\.\n/);
    expect(result.stdout).toMatch(/Title\s+Greeting/);
    expect(result.stdout).toMatch(/Session\s+http:\/\/127\.0\.0\.1:\d+\/\S+/);
    // Without a terminal, progress is one plain line per state, on stderr only.
    expect(result.stderr).toMatch(/^run \S+: SUCCEEDED \(/m);
    expect(result.stderr).not.toMatch(/\x1b\[/);
  });

  it('draws a live status line on a terminal and leaves the state changes and a coloured summary', async () => {
    const { io, out } = capturingIo({ AGENT_RUNS_API_KEY: TEST_KEY, FORCE_COLOR: '1' });
    Object.assign(io.stderr, { isTTY: true, columns: 60 });
    const code = await main([...local.target, 'run', 'Live [simulate 400ms]', '--wait', '--poll-interval', '100ms'], { io });
    expect(code).toBe(0);
    // Redrawn in place: carriage return and erase-line, a spinner frame, the elapsed time.
    expect(out.stderr).toMatch(/\r\x1b\[2K\x1b\[36m[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\x1b\[39m \x1b\[36mINPROGRESS\x1b\[39m \x1b\[2m\d+m?s\x1b\[22m/);
    expect(out.stderr).toMatch(/✔ \x1b\[32mSUCCEEDED\x1b\[39m \x1b\[2mafter \d+m?s/);
    expect(out.stderr.endsWith('\r\x1b[2K')).toBe(true);
    expect(out.stdout).toMatch(/^\x1b\[1mRun \S+ succeeded\.\x1b\[22m\n/);
  });

  it('prints only the final run as JSON on stdout with --json', async () => {
    const result = await cli(['run', 'JSON please [simulate 100ms]', '--wait', '--json', '--model', 'm-1', '--name', 'nightly']);
    expect(result.code).toBe(0);
    const run = RunItemSchema.parse(JSON.parse(result.stdout));
    expect(run.state).toBe('SUCCEEDED');
    expect(run.source).toBe('CLI');
    expect(run.agent_config).toMatchObject({ model_id: 'm-1', name: 'nightly' });
    expect(result.stderr).toBe('');
  });

  it('sends every configuration flag in the create request', async () => {
    const mcp = JSON.stringify({ mcpServers: { docs: { url: 'https://mcp.example.com/docs' } } });
    const result = await inProcess([
      'run', 'Configured [simulate 0ms]', '--json', '--base-prompt', 'Be brief', '--environment', 'env-7',
      '--mcp', mcp, '--idle-timeout', '15', '--worker-host', 'w1', '--computer-use',
    ]);
    expect(result.code).toBe(0);
    const run = await local.client.runs.get(JSON.parse(result.stdout).run_id);
    expect(run.agent_config).toMatchObject({
      base_prompt: 'Be brief',
      environment_id: 'env-7',
      mcp_servers: { docs: { url: 'https://mcp.example.com/docs' } },
      idle_timeout_minutes: 15,
      worker_host: 'w1',
      computer_use_enabled: true,
    });
  });

  it('exits 1 with the status message when the run fails', async () => {
    const result = await cli(['run', 'Break it [simulate fail 100ms]', '--wait']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Run \S+ failed\./);
    expect(result.stdout).toMatch(/Status\s+\S/);
  });

  it('exits 3 on --timeout, says the run goes on and how to cancel it', async () => {
    const result = await cli(['run', 'Never ends [simulate hang]', '--timeout', '1s']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/Timed out after \d+s: run (\S+) is still INPROGRESS and goes on/);
    const runId = /run (\S+) is still/.exec(result.stderr)![1]!;
    expect(result.stderr).toContain(`cancel ${runId} --base-url ${local.server.baseURL}`);
    expect((await local.client.runs.get(runId)).state).toBe('INPROGRESS');
    await local.client.runs.cancel(runId);
  });
});

describe('run without --wait, then wait, get and cancel', () => {
  it('prints the new run id on stdout and returns at once', async () => {
    const result = await cli(['run', 'Later [simulate 100ms]']);
    expect(result.code).toBe(0);
    const runId = result.stdout.trim();
    expect(runId).toMatch(/^[\w-]+$/);
    expect(result.stderr).toContain(`wait ${runId}`);
    const waited = await cli(['wait', runId, '--json']);
    expect(waited.code).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ run_id: runId, state: 'SUCCEEDED' });
  });

  it('shows one run with get, readable or as JSON, exiting 0 whatever its state', async () => {
    const { run_id: runId } = await local.client.runs.create({ prompt: 'Inspect me [simulate fail 0ms]' });
    await local.client.runs.wait(runId, { pollInterval: 50 });
    const human = await inProcess(['get', runId]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Run \S+ failed\./);
    expect(human.stdout).toMatch(/Prompt\s+Inspect me/);
    const json = await inProcess(['get', runId, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ run_id: runId, state: 'FAILED', source: 'API' });
  });

  it('cancels a running run; waiting for it then exits 1 (CANCELLED)', async () => {
    const { run_id: runId } = await local.client.runs.create({ prompt: 'Stop me [simulate hang]' });
    const cancelled = await cli(['cancel', runId]);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toBe(`Cancelled run ${runId}.\n`);
    const waited = await cli(['wait', runId]);
    expect(waited.code).toBe(1);
    expect(waited.stdout).toMatch(/was cancelled/);
  });

  it('exits 4 when cancelling a run that has already ended, with the server’s reason', async () => {
    const { run_id: runId } = await local.client.runs.create({ prompt: 'Done [simulate 0ms]' });
    await local.client.runs.wait(runId, { pollInterval: 50 });
    const result = await inProcess(['cancel', runId, '--json']);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: 400 /);
  });

  it('stops waiting on Ctrl-C, says the run goes on with the cancel command, and exits 130', async () => {
    const { run_id: runId } = await local.client.runs.create({ prompt: 'Long [simulate hang]' });
    const result = await cli(['wait', runId], {
      onSpawn: (child) => void stderrIncludes(child, 'INPROGRESS').then(() => child.kill('SIGINT')),
    });
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(`Stopped waiting. Run ${runId} (INPROGRESS) goes on.`);
    expect(result.stderr).toContain(`cancel ${runId}`);
    expect((await local.client.runs.get(runId)).state).toBe('INPROGRESS');
    await local.client.runs.cancel(runId);
  });
});

describe('API errors', () => {
  it('exits 4 for an unknown run id and says what to check', async () => {
    const result = await cli(['get', 'no-such-run']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/404/);
    expect(result.stderr).toContain('Check the run id and --base-url.');
  });

  it('exits 4 for a wrong key and never prints a key', async () => {
    const wrong = 'wrong-key-abcdefghijkl';
    const result = await cli(['list', '--api-key', wrong]);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('did not accept the API key (401)');
    expect(result.stderr).toContain('--api-key');
    expect(result.stderr + result.stdout).not.toContain(wrong);
    expect(result.stderr + result.stdout).not.toContain(TEST_KEY);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 4 with the server’s reason when it rejects the prompt', async () => {
    const result = await inProcess(['run', 'Odd [simulate explode]', '--wait']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/prompt/);
  });
});
