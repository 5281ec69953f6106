import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api, ended, outputOf, TESTER_KEY } from '../support/server-api.js';
import { writeServerConfig } from '../support/server-config.js';
import { killProcesses, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startChildRunSource } from '../support/child-run-agent.js';
import { nodeAgentCommand } from '../support/node-agent.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/**
 * A run on a self-hosted worker gets a run token as the server's own executions do: the server
 * mints it with the assignment, the worker gives the agent AGENT_RUNS_API_URL (the server as the
 * worker reaches it) and AGENT_RUNS_RUN_TOKEN, masked in what it prints. Real server and worker processes.
 */
const AGENT = nodeAgentCommand(startChildRunSource({ tokenFile: true }));

const WORKER_TOKEN = 'worker-run-token-9a7c2e41d0';
const processes: (ServerProcess | WorkerProcess)[] = [];
afterEach(() => killProcesses(processes));

describe('a run on a worker', () => {
  it('creates a child with its run token, which is masked in its output and refused once the run ended', async () => {
    const configFile = writeServerConfig({ workers: { pool: { token: { from_env: 'AGENT_RUNS_E2E_WORKER_TOKEN' }, worker_hosts: ['box-1'] } } });
    const server = await startServerProcess(['--memory', '--api-key', `tester=${TESTER_KEY}`, '--config', configFile], { ...process.env, AGENT_RUNS_E2E_WORKER_TOKEN: WORKER_TOKEN });
    processes.push(server);
    const serverUrl = server.baseURL.replace(/\/api\/v1$/, '');
    const workDir = mkdtempSync(join(tmpdir(), 'worker-run-token-'));
    const worker = await startWorkerProcess(['--server', serverUrl, '--worker-host', 'box-1', '--command', AGENT, '--work-dir', workDir], WORKER_TOKEN);
    processes.push(worker);

    const parent = (await api(server, '/agent/runs', { method: 'POST', body: { prompt: 'fan out', config: { worker_host: 'box-1' } } })).body.run_id as string;
    const run = await ended(server, parent, 20_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const output = await outputOf(server, parent);
    expect(output).toContain(`url: ${serverUrl}`);
    expect(output).toContain('token: ***');
    const childId = /child 200 (\S+?)\\n/.exec(output)?.[1];
    expect(childId, output).toBeDefined();
    const child = await ended(server, childId!);
    expect(child).toMatchObject({ state: 'SUCCEEDED', parent_run_id: parent });

    // The token the agent had: not in any output or in the worker's log, and dead now its run ended.
    const token = readFileSync(join(workDir, parent, 'token.txt'), 'utf8');
    expect(token).toMatch(/^art_/);
    expect(output).not.toContain(token);
    expect(worker.stderr()).not.toContain(token);
    const after = await fetch(`${server.baseURL}/agent/runs/${childId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
  }, 45_000);
});
