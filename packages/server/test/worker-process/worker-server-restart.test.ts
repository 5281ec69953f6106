import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { api, runOf, ended, TESTER_KEY } from '../support/server-api.js';
import { writeServerConfig } from '../support/server-config.js';
import { killProcesses, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { agentBeats, WORKER_AGENT } from '../support/worker-agent.js';
import { freePort } from '../support/free-port.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/**
 * A server alone on its SQLite file keeps its leases in memory: restarted, it gives the runs
 * its workers were running back to them for one lease instead of failing them, and the
 * worker's next poll renews them. Real server and worker processes on loopback.
 */
const TOKEN = 'restart-worker-token-51c0d2e9';
const KEY = TESTER_KEY;

const processes: (ServerProcess | WorkerProcess)[] = [];
/** The first server each test starts. */
const servers: ServerProcess[] = [];
afterEach(async () => {
  await killProcesses(processes);
});

const configFile = writeServerConfig({ workers: { pool: { token: { from_env: 'RESTART_WORKER_TOKEN' }, worker_hosts: ['box-1'] } } });

async function startServer(dataDir: string, port: number): Promise<ServerProcess> {
  const server = await startServerProcess(['--data-dir', dataDir, '--port', String(port), '--api-key', `tester=${KEY}`, '--config', configFile, '--lease', '10s'], {
    ...process.env,
    RESTART_WORKER_TOKEN: TOKEN,
  });
  processes.push(server);
  return server;
}



/** A server on a data directory of its own, at a port it can be started on again, and a worker connected to it. */
async function serverAndWorker() {
  const dataDir = mkdtempSync(join(tmpdir(), 'worker-restart-data-'));
  const workDir = mkdtempSync(join(tmpdir(), 'worker-restart-work-'));
  const port = await freePort();
  servers.splice(0, servers.length, await startServer(dataDir, port));
  const worker = await startWorkerProcess(['--server', `http://127.0.0.1:${port}`, '--worker-host', 'box-1', '--command', WORKER_AGENT, '--work-dir', workDir], TOKEN);
  processes.push(worker);
  return { dataDir, workDir, port, worker };
}

describe('a SQLite server restarted under its workers', () => {
  it('leaves their runs in progress to them: one finishes SUCCEEDED, and a cancel sent to the new server reaches the other', async () => {
    const { dataDir, workDir, port, worker } = await serverAndWorker();
    let server = servers[0]!;
    const create = async (prompt: string) => (await api(server, '/agent/run', { method: 'POST', body: { prompt, config: { worker_host: 'box-1' } } })).body.run_id as string;
    const sleeper = await create('sleep 4000');
    const hanger = await create('hang');
    await eventually(() => agentBeats(workDir, hanger), (up) => up);
    expect((await runOf(server, sleeper)).state).toBe('INPROGRESS');

    server.child.kill('SIGTERM');
    await server.exited;
    server = await startServer(dataDir, port);
    expect(server.stderr()).toContain('Left 2 run(s) in progress on workers to them');

    expect((await ended(server, sleeper)).state).toBe('SUCCEEDED');
    expect((await api(server, `/agent/runs/${hanger}/cancel`, { method: 'POST' })).status).toBeLessThan(300);
    expect((await ended(server, hanger)).state).toBe('CANCELLED');
    await eventually(() => agentBeats(workDir, hanger), (up) => !up, 5_000);
    expect(worker.stderr()).not.toContain(`Run ${sleeper}: lease lost`);
  }, 40_000);

  it('fails them once their lease runs out when the worker does not come back', async () => {
    const { dataDir, workDir, port, worker } = await serverAndWorker();
    let server = servers[0]!;
    const id = (await api(server, '/agent/run', { method: 'POST', body: { prompt: 'hang', config: { worker_host: 'box-1' } } })).body.run_id as string;
    await eventually(() => agentBeats(workDir, id), (up) => up);
    worker.child.kill('SIGKILL');
    server.child.kill('SIGKILL');
    await Promise.all([worker.exited, server.exited]);
    const restartedAt = Date.now();
    server = await startServer(dataDir, port);
    expect((await runOf(server, id)).state).toBe('INPROGRESS');
    const run = await ended(server, id, 20_000);
    expect(run.state).toBe('FAILED');
    expect(run.status_message.message).toContain('stopped renewing its lease');
    // One lease (10 s) from the restart, and the sweep after it.
    expect(Date.now() - restartedAt).toBeGreaterThan(9_000);
  }, 45_000);
});
