import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-process.js';
import { startTestServer } from './support/local-server.js';

/** `run --pr`, against a real local server whose runs have no environment that takes pull requests. */
let local: Awaited<ReturnType<typeof startTestServer>>;
const cli = (args: string[]) => runCli([...local.target, ...args], { env: local.env });

beforeAll(async () => {
  local = await startTestServer();
});
afterAll(async () => {
  await local?.close();
});

describe('run --pr', () => {
  it('refuses a value it does not know, naming the three it takes, and creates nothing', async () => {
    const result = await cli(['run', 'Hello', '--pr', 'yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--pr must be one of draft, ready, off, got "yes"');
    expect(JSON.parse((await cli(['list', '--json'])).stdout).runs).toHaveLength(0);
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
