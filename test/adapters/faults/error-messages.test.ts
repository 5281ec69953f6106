import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverInputs, startActionServer } from '../../../packages/action/test/support/action-server.js';
import { runStep } from '../../../packages/action/test/support/runner.js';
import { runCli } from '../../../packages/cli/test/support/cli-process.js';
import { BIN as MCP_BIN, binEnv, connectStdio, textOf, type StdioSession } from '../../../packages/mcp/test/support/mcp-harness.js';

let env: Awaited<ReturnType<typeof startActionServer>>;
let mcp: StdioSession;
let runId: string;
beforeAll(async () => {
  env = await startActionServer();
  runId = (await env.client.runs.create({ prompt: 'Exists [simulate 100ms]' })).run_id;
  mcp = await connectStdio(binEnv(env.server));
});
afterAll(async () => {
  await mcp?.close();
  await env?.close();
});

const key = () => ({ AGENT_RUNS_API_KEY: env.server.apiKey });

describe('the command line says what is wrong', () => {
  it('serve --host with a name that does not resolve: a connection message, not "unexpected"', async () => {
    const result = await runCli(['serve', '--memory', '--quiet', '--host', 'nosuchhost.invalid']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: Cannot listen on --host nosuchhost.invalid: the name does not resolve (ENOTFOUND)');
    expect(result.stderr).not.toContain('unexpected');
  });

  it('a --base-url without /api/v1: a message about the base URL, not the run id', async () => {
    const result = await runCli(['--base-url', env.server.url, 'get', runId], { env: key() });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`The base URL ${env.server.url}/ does not end in /api/v1: pass --base-url the API's address`);
    expect(result.stderr).not.toContain('Check the run id');
  });

  it('no key against a local server: says a key is needed, not that it was refused', async () => {
    const result = await runCli(['--base-url', env.server.baseURL, 'list']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`error: ${env.server.url} needs an API key (401), and none was given.`);
    expect(result.stderr).not.toContain('did not accept');
  });

  it('a bad AGENT_RUNS_BASE_URL is named as the variable, not the flag', async () => {
    const result = await runCli(['list'], { env: { ...key(), AGENT_RUNS_BASE_URL: 'ftp://runs.example/api/v1' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: AGENT_RUNS_BASE_URL: baseURL must use https: or http:/m);
  });
});

describe('the MCP server says what is wrong', () => {
  it('list_runs with a bad cursor talks about the cursor, not get_run', async () => {
    const result = await mcp.client.callTool({ name: 'list_runs', arguments: { cursor: 'not-a-cursor' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cursor/);
    expect(textOf(result)).toContain('call list_runs without cursor');
    expect(textOf(result)).not.toContain('get_run');
  });

  it('get_run with a number says run_id must be a string, not that it is required', async () => {
    const result = await mcp.client.callTool({ name: 'get_run', arguments: { run_id: 123 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('run_id must be a string');
    expect(textOf(result)).toContain('got 123');
    expect(textOf(result)).not.toContain('required');
  });

  it('a bad AGENT_RUNS_BASE_URL is named as the variable', () => {
    const result = spawnSync(process.execPath, [MCP_BIN], {
      env: { ...binEnv(env.server), AGENT_RUNS_BASE_URL: 'ftp://runs.example/api/v1' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('AGENT_RUNS_BASE_URL: baseURL must use https: or http:');
  });

  it('--host with a name that does not resolve: a message naming the flag', () => {
    const result = spawnSync(process.execPath, [MCP_BIN, '--http', '--port', '0', '--host', 'nosuchhost.invalid'], {
      env: binEnv(env.server),
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('cannot listen on --host nosuchhost.invalid (ENOTFOUND)');
  });
});

describe('the Action says what is wrong, cleanly', () => {
  it('quotes the server once, without a doubled period', async () => {
    const step = await runStep({ inputs: serverInputs(env.server, { prompt: 'x', 'api-key': 'not-the-key-0123456789' }) });
    expect(step.code).toBe(1);
    expect(step.error).toContain('The server said: The API key is not valid for this server');
    expect(step.error).not.toMatch(/\.\./);
  });

  it('shows the address it tried readably, with its percent-escapes decoded once', async () => {
    const step = await runStep({ inputs: serverInputs(env.server, { prompt: 'x', 'base-url': `${env.server.url}/my api` }) });
    expect(step.code).toBe(1);
    expect(step.error).toContain(`Not found (404) at POST ${env.server.url}/my api/agent/runs.`);
    expect(step.error).not.toMatch(/\.\./);
  });
});
