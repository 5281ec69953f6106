import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processAlive } from '../../../test/support/process-alive.js';
import { writeServerConfig } from './support/server-config.js';
import { nodeAgentCommand } from './support/node-agent.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const workRoot = mkdtempSync(join(tmpdir(), 'agent-runs-cmd-'));
const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(workRoot, { recursive: true, force: true });
});

/** A server whose agent is `node -e <script>`. */
async function withAgent(script: string, commandTimeoutMs = 10_000, sandbox?: 'off'): Promise<TestServer> {
  const t = await startTestServer({
    ...(sandbox ? { sandbox } : {}),
    executor: 'command',
    command: nodeAgentCommand(script),
    workDir: workRoot,
    commandTimeoutMs,
    configFile: writeServerConfig({ environments: { 'env-9': {} } }),
  });
  servers.push(t);
  return t;
}

describe('the command executor', () => {
  it('gives the agent its prompt on stdin, the run in env vars and mcp.json, and succeeds on exit 0', async () => {
    // The agent inherits the server's environment, but never the server's keys.
    process.env.AGENT_RUNS_SERVER_API_KEYS = 'alice=server-secret-key';
    const t = await withAgent(`
      let input = '';
      process.stdin.on('data', (d) => (input += d)).on('end', () => {
        const fs = require('node:fs');
        fs.writeFileSync('report.json', JSON.stringify({
          input, cwd: process.cwd(), env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('AGENT_RUNS_'))),
          mcp: JSON.parse(fs.readFileSync(process.env.AGENT_RUNS_MCP_CONFIG, 'utf8')),
        }));
        console.log('agent says hello');
      });`);
    const { run_id } = await t.client.runs.create({
      prompt: 'Refactor the parser',
      title: 'Parser',
      mode: 'orchestrate',
      config: { model_id: 'model-x', base_prompt: 'Be brief', environment_id: 'env-9', mcp_servers: { gh: { command: 'gh-mcp', args: ['--stdio'] } } },
    });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('SUCCEEDED');
    const report = JSON.parse(readFileSync(join(workRoot, run_id, 'report.json'), 'utf8'));
    expect(report.input).toBe('Refactor the parser');
    expect(report.cwd).toBe(join(workRoot, run_id));
    expect(report.env).toMatchObject({
      AGENT_RUNS_RUN_ID: run_id,
      AGENT_RUNS_TITLE: 'Parser',
      AGENT_RUNS_MODEL_ID: 'model-x',
      AGENT_RUNS_BASE_PROMPT: 'Be brief',
      AGENT_RUNS_ENVIRONMENT_ID: 'env-9',
      AGENT_RUNS_MODE: 'orchestrate',
      AGENT_RUNS_MCP_CONFIG: join(workRoot, run_id, 'mcp.json'),
    });
    expect(report.env).not.toHaveProperty('AGENT_RUNS_SERVER_API_KEYS');
    expect(report.mcp).toEqual({ mcpServers: { gh: { command: 'gh-mcp', args: ['--stdio'] } } });
    const page = await (await fetch(run.session_link!)).text();
    expect(page).toContain('agent says hello');
  });

  it('fails on a non-zero exit with the end of stderr as the status message', async () => {
    const t = await withAgent(`process.stderr.write('x'.repeat(5000) + '\\nerror: tests are red\\n'); process.exit(3);`);
    const { run_id } = await t.client.runs.create({ prompt: 'Make the tests pass' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('FAILED');
    expect(run.status_message?.message).toMatch(/exited with code 3: x+\nerror: tests are red$/);
    expect(run.status_message!.message.length).toBeLessThan(2200);
  });

  it('stops an agent that runs past the timeout and fails the run', async () => {
    const t = await withAgent(`setInterval(() => {}, 1000);`, 300);
    const { run_id } = await t.client.runs.create({ prompt: 'Take forever' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('FAILED');
    expect(run.status_message?.message).toMatch(/ran longer than 300ms/);
  });

  it('ends the whole process group on cancel, children included', async () => {
    const t = await withAgent(`
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      require('node:fs').writeFileSync('pids', process.pid + ' ' + child.pid);
      setInterval(() => {}, 1000);`, 10_000, 'off'); // Its pids are read from the server's side: a sandbox's PID namespace would hide them (test/sandbox covers it there).
    const { run_id } = await t.client.runs.create({ prompt: 'Spawn helpers' });
    const pidFile = join(workRoot, run_id, 'pids');
    await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').includes(' '), { timeout: 10_000 }).toBe(true);
    const pids = readFileSync(pidFile, 'utf8').split(' ').map(Number);
    expect(pids.every(processAlive)).toBe(true);
    await t.client.runs.cancel(run_id);
    expect((await t.client.runs.get(run_id)).state).toBe('CANCELLED');
    await expect.poll(() => pids.some(processAlive), { timeout: 6000 }).toBe(false);
  });
});
