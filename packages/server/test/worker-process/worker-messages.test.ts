import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { api, outputOf, TESTER_KEY } from '../support/server-api.js';
import { writeServerConfig } from '../support/server-config.js';
import { killProcesses, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { WORKER_AGENT } from '../support/worker-agent.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/**
 * A message from another run to a run a self-hosted worker executes reaches its agent's inbox
 * file while it runs, as it does on the server's own executor: real server and worker processes.
 */

const TOKEN = 'worker-messages-token-3d81b0c4e2';
const processes: (ServerProcess | WorkerProcess)[] = [];
afterEach(() => killProcesses(processes));

describe('a message to a run on a worker', () => {
  it('is written to the running agent\'s inbox and stamped delivered', async () => {
    const configFile = writeServerConfig({ workers: { pool: { token: { from_env: 'AGENT_RUNS_E2E_WORKER_TOKEN' }, worker_hosts: ['box-1'] } } });
    const server = await startServerProcess(['--memory', '--api-key', `tester=${TESTER_KEY}`, '--config', configFile], { ...process.env, AGENT_RUNS_E2E_WORKER_TOKEN: TOKEN });
    processes.push(server);
    const worker = await startWorkerProcess(
      ['--server', server.baseURL.replace(/\/api\/v1$/, ''), '--worker-host', 'box-1', '--command', WORKER_AGENT, '--work-dir', mkdtempSync(join(tmpdir(), 'worker-messages-'))],
      TOKEN,
    );
    processes.push(worker);
    // The agent waits for its inbox, then prints the first message's text.
    const listener = (await api(server, '/agent/run', { method: 'POST', body: { prompt: 'inbox', config: { worker_host: 'box-1' } } })).body.run_id as string;
    const sender = (await api(server, '/agent/run', { method: 'POST', body: { prompt: 'Lead [simulate 30s]' } })).body.run_id as string;
    await eventually(() => outputOf(server, listener), (output) => output.includes('pid='), 15_000);
    const sent = await api(server, '/agent/messages', { method: 'POST', body: { to: [listener], subject: 'Your part', body: 'parse the dates', sender_run_id: sender } });
    expect(sent.status).toBe(200);
    await eventually(() => outputOf(server, listener), (output) => output.includes('got parse the dates'), 15_000);
    const inbox = await api(server, `/agent/messages/${listener}`);
    expect(inbox.body).toEqual([expect.objectContaining({ sender_run_id: sender, subject: 'Your part', delivered_at: expect.any(String) })]);
  }, 45_000);
});
