import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-process.js';
import { startTestServer } from './support/local-server.js';

/** The budget flags of run and followup, and run's --pr, against a real local server (its simulated agent reports no usage: a duration cap is the one it can be held to; no environment takes pull requests). */
let local: Awaited<ReturnType<typeof startTestServer>>;
const cli = (args: string[]) => runCli([...local.target, ...args], { env: local.env });

beforeAll(async () => {
  local = await startTestServer();
});
afterAll(async () => {
  await local?.close();
});

describe('budget flags', () => {
  it('sends --max-duration as config.budget; a run stopped at it exits 1 and says how to continue with a raised cap', async () => {
    const result = await cli(['run', 'Think long [simulate 5s]', '--max-duration', '1s', '--wait', '--poll-interval', '100ms']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('BLOCKED');
    expect(result.stdout).toContain('stopped at the budget');
    const hint = /followup (\S+) 'Go on' --max-duration 2s/.exec(result.stderr);
    expect(hint, result.stderr).not.toBeNull();
    const got = await cli(['get', hint![1]!, '--json']);
    expect(JSON.parse(got.stdout).agent_config.budget).toEqual({ max_duration_seconds: 1 });
  }, 30_000);

  it('a followup with --max-duration raises the cap of the blocked run', async () => {
    const run = await cli(['run', 'Think long [simulate 3s]', '--max-duration', '1s', '--wait', '--poll-interval', '100ms']);
    const id = /followup (\S+) 'Go on'/.exec(run.stderr)![1]!;
    const sent = await cli(['followup', id, 'Go on', '--max-duration', '10m']);
    expect(sent.code, sent.stderr).toBe(0);
    const got = await cli(['get', id, '--json']);
    expect(JSON.parse(got.stdout).agent_config.budget).toEqual({ max_duration_seconds: 600 });
  }, 30_000);

  it.each([
    [['--max-cost-usd', 'lots'], '--max-cost-usd must be a number from 0.0001 to 100000, got "lots"'],
    [['--max-tokens', '1.5'], '--max-tokens must be a whole number from 1 to 10000000000, got "1.5"'],
    [["--max-duration", "8d"], "--max-duration must be at most 7d (604800 seconds), got \"8d\""],
  ])('refuses %j, naming the flag and the range, and creates nothing', async (flags, message) => {
    const result = await cli(['run', 'Hello', ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describe('run --pr', () => {
  it('refuses a value it does not know, naming the three it takes, and creates nothing', async () => {
    const before = (await local.client.runs.list({ limit: 100 })).runs.length;
    const result = await cli(['run', 'Hello', '--pr', 'yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--pr must be one of draft, ready, off, got "yes"');
    expect((await local.client.runs.list({ limit: 100 })).runs.length).toBe(before);
  });

  it('sends config.pull_request; where no repository takes a pull request, the server\'s refusal names the field, and the CLI the flag', async () => {
    const result = await cli(['run', 'Hello', '--pr', 'draft']);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(/config\.pull_request: a run with no environment_id has no repository with pull_requests settings/);
    // The line after the server's words names the flag that set the field.
    expect(result.stderr).toContain('Change --pr (config.pull_request).');
    // off asks for nothing the environment must allow.
    const off = await cli(['run', 'Hello', '--pr', 'off', '--json']);
    expect(off.code, off.stderr).toBe(0);
    const got = await cli(['get', JSON.parse(off.stdout).run_id, '--json']);
    expect(JSON.parse(got.stdout).agent_config.pull_request).toBe('off');
  }, 30_000);
});
