import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import { eventually } from '../support/eventually.js';
import { api, runOf, ended, outputOf, TESTER_KEY } from '../support/server-api.js';
import { writeServerConfig } from '../support/server-config.js';
import { killProcesses, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { agentBeats, WORKER_AGENT } from '../support/worker-agent.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/** A real server process and real worker processes on loopback, the worker token from the server's configuration file. */

const TOKEN = 'worker-e2e-token-7d1f0a93c2';
const KEY = TESTER_KEY;

/** What a test starts, ended with that test (tests run concurrently: each ends only its own). */
function processesOf({ onTestFinished }: TestContext): (ServerProcess | WorkerProcess)[] {
  const processes: (ServerProcess | WorkerProcess)[] = [];
  onTestFinished(() => killProcesses(processes));
  return processes;
}

async function startServer(processes: (ServerProcess | WorkerProcess)[], lease = '15s'): Promise<ServerProcess> {
  const configFile = writeServerConfig({ workers: { pool: { token: { from_env: 'AGENT_RUNS_E2E_WORKER_TOKEN' }, worker_hosts: ['box-1'] } } });
  const server = await startServerProcess(['--memory', '--api-key', `tester=${KEY}`, '--config', configFile, '--lease', lease], { ...process.env, AGENT_RUNS_E2E_WORKER_TOKEN: TOKEN });
  processes.push(server);
  return server;
}

async function startWorker(processes: (ServerProcess | WorkerProcess)[], server: ServerProcess, args: string[] = []): Promise<{ worker: WorkerProcess; workDir: string }> {
  const workDir = mkdtempSync(join(tmpdir(), 'worker-e2e-'));
  const root = server.baseURL.replace(/\/api\/v1$/, '');
  const worker = await startWorkerProcess(['--server', root, '--worker-host', 'box-1', '--command', WORKER_AGENT, '--work-dir', workDir, ...args], TOKEN);
  processes.push(worker);
  return { worker, workDir };
}


async function createRun({ expect }: TestContext, server: ServerProcess, prompt: string): Promise<string> {
  const created = await api(server, '/agent/run', { method: 'POST', body: { prompt, config: { worker_host: 'box-1' } } });
  expect(created.status).toBe(200);
  return created.body.run_id as string;
}

// Each test starts its own server and workers, and waits on them far more than it computes: they run side by side
// (vitest's maxConcurrency at a time).
describe.concurrent('agent-runs-worker with a real server', () => {
  it('runs a run routed to its host there: SUCCEEDED with its output and artifacts on the server', async (context) => {
    const { expect } = context;
    const processes = processesOf(context);
    const server = await startServer(processes);
    await startWorker(processes, server);
    const id = await createRun(context, server, 'ok');
    const run = await ended(server, id);
    expect(run.state).toBe('SUCCEEDED');
    const output = await outputOf(server, id);
    expect(output).toContain('line one');
    expect(output).toContain('line two');
    expect(JSON.stringify(run.artifacts ?? (await api(server, `/agent/runs/${id}/artifacts`)).body)).toContain('out.txt');
  }, 30_000);

  it('passes a cancel on to the remote agent', async (context) => {
    const { expect } = context;
    const processes = processesOf(context);
    const server = await startServer(processes);
    const { workDir } = await startWorker(processes, server);
    const id = await createRun(context, server, 'hang');
    await eventually(() => agentBeats(workDir, id), (up) => up);
    expect((await api(server, `/agent/runs/${id}/cancel`, { method: 'POST' })).status).toBeLessThan(300);
    expect((await ended(server, id)).state).toBe('CANCELLED');
    await eventually(() => agentBeats(workDir, id), (up) => !up, 5_000);
  }, 30_000);

  it('drains on SIGTERM while two runs run: both finish, no new run is taken, exit 0', async (context) => {
    const { expect } = context;
    const processes = processesOf(context);
    const server = await startServer(processes);
    const { worker } = await startWorker(processes, server);
    const ids = [await createRun(context, server, 'sleep 2500'), await createRun(context, server, 'sleep 2500')];
    await eventually(async () => (await Promise.all(ids.map((id) => runOf(server, id)))).map((r) => r.state), (states) => states.every((s) => s === 'INPROGRESS'));
    worker.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const third = await createRun(context, server, 'ok');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    for (const id of ids) expect((await runOf(server, id)).state).toBe('SUCCEEDED');
    expect((await runOf(server, third)).state).toBe('QUEUED');
  }, 30_000);

  it('keeps the working directories of the last --keep-work-dirs ended runs, removing older ones with their protocol files', async (context) => {
    const { expect } = context;
    const processes = processesOf(context);
    const server = await startServer(processes);
    const { worker, workDir } = await startWorker(processes, server, ['--keep-work-dirs', '1']);
    writeFileSync(join(workDir, 'operator-notes.txt'), 'not a run\n');
    const ids: string[] = [];
    for (const prompt of ['ok', 'ok', 'ok']) {
      const id = await createRun(context, server, prompt);
      expect((await ended(server, id)).state).toBe('SUCCEEDED');
      ids.push(id);
    }
    const runDirs = () => readdirSync(workDir).filter((name) => ids.includes(name)).sort();
    await eventually(runDirs, (dirs) => dirs.length === 1);
    expect(runDirs()).toEqual([ids[2]]);
    expect(readdirSync(join(workDir, '.agent-runs')).filter((name) => ids.includes(name))).toEqual([ids[2]]);
    expect(existsSync(join(workDir, 'operator-notes.txt'))).toBe(true);
    // A follow-up to a run whose directory went still runs: the worker makes it again.
    expect((await api(server, `/agent/runs/${ids[0]}/followups`, { method: 'POST', body: { message: 'ok' } })).status).toBeLessThan(300);
    await eventually(() => worker.stderr(), (text) => text.includes(`Run ${ids[0]}: taken (execution 2)`), 15_000);
    await eventually(() => outputOf(server, ids[0]!), (output) => output.includes('working directory was restored'), 15_000);
    expect((await ended(server, ids[0]!)).state).toBe('SUCCEEDED');
  }, 30_000);

  it("says in the run's output which caps the worker's agent cannot be held to (the command agent reports no usage)", async (context) => {
    const { expect } = context;
    const processes = processesOf(context);
    const server = await startServer(processes);
    await startWorker(processes, server);
    const created = await api(server, '/agent/run', { method: 'POST', body: { prompt: 'ok', config: { worker_host: 'box-1', budget: { max_cost_usd: 1 } } } });
    expect(created.status).toBe(200);
    expect((await ended(server, created.body.run_id)).state).toBe('SUCCEEDED');
    expect(await outputOf(server, created.body.run_id)).toContain('agent_config.budget.max_cost_usd cannot be held here');
  }, 30_000);

  it('frozen past its short lease (SIGSTOP, SIGCONT): its agent is stopped and nothing it sends lands; the run FAILED naming the worker', async (context) => {
    const { expect } = context;
    const processes = processesOf(context);
    const server = await startServer(processes, '3s');
    const { worker, workDir } = await startWorker(processes, server, ['--instance-id', 'frozen-1']);
    const id = await createRun(context, server, 'hang');
    await eventually(() => agentBeats(workDir, id), (up) => up);
    worker.child.kill('SIGSTOP');
    const run = await ended(server, id, 15_000);
    expect(run.state).toBe('FAILED');
    expect(run.status_message.message).toContain('frozen-1');
    const before = await outputOf(server, id);
    worker.child.kill('SIGCONT');
    await eventually(() => agentBeats(workDir, id), (up) => !up, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await outputOf(server, id)).toBe(before);
    expect((await runOf(server, id)).state).toBe('FAILED');
  }, 30_000);

  it('idle on SIGTERM: exits 0 at once, not at the end of its waiting poll, and a run created then waits for the next worker', async (context) => {
    const { expect } = context;
    const processes = processesOf(context);
    const server = await startServer(processes);
    const { worker } = await startWorker(processes, server);
    // Connected, and its first poll waiting at the server (an idle poll waits 25 s there).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const signalled = performance.now();
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    // Without the drain notice it waited out the poll: over 20 s (the bound leaves room for a busy machine).
    expect(performance.now() - signalled).toBeLessThan(15_000);
    const after = await createRun(context, server, 'ok');
    const next = await startWorker(processes, server);
    expect((await ended(server, after)).state).toBe('SUCCEEDED');
    next.worker.child.kill('SIGTERM');
  }, 30_000);
});

// How soon a full worker fills its slot, held to seconds (the failure it guards against is seconds too): on its own, not beside a neighbour's processes.
describe('agent-runs-worker with a real server, how soon it acts', () => {
  it('asks for the next run as soon as one ends: a full worker does not wait out its poll to fill the slot', async (context) => {
    const { expect } = context;
    const processes = processesOf(context);
    // Holding runs, a poll waits up to a sixth of the lease (5 s here) for commands.
    const server = await startServer(processes, '30s');
    await startWorker(processes, server, ['--concurrency', '1']);
    const ids = [await createRun(context, server, 'sleep 500'), await createRun(context, server, 'sleep 500')];
    const [first, second] = await Promise.all(ids.map((id) => ended(server, id)));
    expect([first.state, second.state]).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    // The agent takes 0.5 s; before the server answered the waiting poll on a finish, the slot stayed empty about 4.5 s more.
    expect(Date.parse(second.started_at) - Date.parse(first.started_at)).toBeLessThan(2_500);
  }, 20_000);
});
