import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MAX_DURATION_MS, readDuration } from '@agent-runs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverInputs, startActionServer } from '../../../packages/action/test/support/action-server.js';
import { runStep } from '../../../packages/action/test/support/runner.js';
import { runCli } from '../../../packages/cli/test/support/cli-process.js';
import { BIN as MCP_BIN, binEnv } from '../../../packages/mcp/test/support/mcp-harness.js';

const SERVER_BIN = fileURLToPath(new URL('../../../packages/server/bin/agent-runs-server.js', import.meta.url));
const TOO_LONG = /must be at most 24d \(the longest timer Node\.js keeps\), got "600h"/;

let env: Awaited<ReturnType<typeof startActionServer>>;
beforeAll(async () => {
  env = await startActionServer();
});
afterAll(() => env.close());

describe("core's duration bound", () => {
  it('sits below the longest timer Node keeps', () => {
    expect(MAX_DURATION_MS).toBeLessThan(2 ** 31 - 1);
    expect(readDuration('24d')).toEqual({ ms: MAX_DURATION_MS });
    expect(readDuration('24d1ms').problem).toMatch(/must be at most 24d/);
  });
});

describe('a duration past the bound is a usage error in every adapter, naming where it came from', () => {
  it('the command line: --timeout 600h', async () => {
    const result = await runCli(['--base-url', env.server.baseURL, 'run', 'Hello [simulate 100ms]', '--wait', '--timeout', '600h'], {
      env: { AGENT_RUNS_API_KEY: env.server.apiKey },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: --timeout ${TOO_LONG.source}\\.$`, 'm'));
    expect(result.stderr).not.toContain('TimeoutOverflowWarning');
    // Nothing was started.
    expect((await env.client.runs.list()).runs.filter((r) => r.prompt.startsWith('Hello'))).toEqual([]);
  });

  it('the command line: a wait at the bound itself still follows a short run to its end', async () => {
    const result = await runCli(
      ['--base-url', env.server.baseURL, 'run', 'Bound [simulate 200ms]', '--wait', '--timeout', '24d', '--poll-interval', '100ms'],
      { env: { AGENT_RUNS_API_KEY: env.server.apiKey } },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/succeeded/);
    expect(result.stderr).not.toContain('TimeoutOverflowWarning');
  });

  it('the Action: the timeout input', async () => {
    const step = await runStep({ inputs: serverInputs(env.server, { prompt: 'Hello [simulate 100ms]', timeout: '600h' }) });
    expect(step.code).toBe(1);
    expect(step.error).toMatch(new RegExp(`^Input "timeout" ${TOO_LONG.source}\\.$`));
    expect(step.outputs['run-id']).toBeUndefined();
  });

  it('the MCP server: --poll-interval, and the variable by its own name', () => {
    const flag = spawnSync(process.execPath, [MCP_BIN, '--poll-interval', '600h'], { env: binEnv(env.server), encoding: 'utf8', timeout: 10_000 });
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(new RegExp(`--poll-interval ${TOO_LONG.source}`));
    const variable = spawnSync(process.execPath, [MCP_BIN], {
      env: binEnv(env.server, { AGENT_RUNS_MCP_HEARTBEAT: '600h' }),
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(variable.status).toBe(2);
    expect(variable.stderr).toMatch(new RegExp(`AGENT_RUNS_MCP_HEARTBEAT ${TOO_LONG.source}`));
  });

  it('the local server: --command-timeout 9999999h', () => {
    const result = spawnSync(
      process.execPath,
      [SERVER_BIN, '--memory', '--port', '0', '--executor', 'command', '--command', 'true', '--command-timeout', '9999999h'],
      { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8', timeout: 10_000 },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--command-timeout must be at most 24d (the longest timer Node.js keeps), got "9999999h"');
  });
});
