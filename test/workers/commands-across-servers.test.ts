import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../packages/server/test/support/server-process.js';
import { agentBeats, WORKER_AGENT } from '../../packages/server/test/support/worker-agent.js';
import { startWorkerProcess, type WorkerProcess } from '../../packages/server/test/support/worker-process.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../support/postgres.js';

const KEY = 'commands-pg-test-key-0123456789';
const TOKEN = 'commands-worker-token-pg-0123456789';

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): the commands-across-servers test is SKIPPED. ***\n');

/**
 * Two servers on one PostgreSQL database and a worker that polls only the first: a cancel or
 * a follow-up sent to the second reaches the worker's agent at once, through the servers'
 * signals, not at the worker's next lease renewal (a 60 s lease here: a poll holding runs is
 * answered within 10 s, far past what these tests wait).
 */
describe.runIf(postgresAdminUrl && process.platform === 'linux')('commands to a worker sent through another server', () => {
  let db: TestDatabase;
  const servers: ServerProcess[] = [];
  let worker: WorkerProcess;
  const workDir = mkdtempSync(join(tmpdir(), 'commands-across-'));
  // The agents run as another user (nobody, when the tests run as root), unsandboxed: they reach their files through it.
  chmodSync(workDir, 0o711);

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = join(workDir, 'server.yaml');
    writeFileSync(config, `workers:\n  pool:\n    token: { from_env: POOL_WORKER_TOKEN }\n    worker_hosts: [pool]\n`);
    for (let i = 0; i < 2; i++) {
      servers.push(await startServerProcess(['--database-url', db.url, '--api-key', KEY, '--config', config, '--lease', '60s'], { ...process.env, POOL_WORKER_TOKEN: TOKEN }));
    }
    const first = new URL(servers[0]!.baseURL).origin;
    worker = await startWorkerProcess(['--server', first, '--worker-host', 'pool', '--command', WORKER_AGENT, '--work-dir', join(workDir, 'runs'), '--sandbox', 'off'], TOKEN);
  }, 60_000);

  afterAll(async () => {
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all([worker?.exited, ...servers.map((s) => s.exited)]);
    await db?.drop();
  }, 60_000);

  const api = async (server: ServerProcess, path: string, body?: unknown) => {
    const res = await fetch(`${server.baseURL}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };
  const started = async (prompt: string) => {
    const created = await api(servers[0]!, '/agent/run', { prompt, config: { worker_host: 'pool' } });
    expect(created.status).toBe(200);
    const id = created.body.run_id as string;
    await expect.poll(async () => JSON.stringify((await api(servers[0]!, `/agent/runs/${id}/output`)).body), { timeout: 15_000, interval: 50 }).toContain('pid=');
    return id;
  };

  it('a cancel sent to the other server stops the remote agent within a second', async () => {
    const id = await started('hang');
    const sent = performance.now();
    expect((await api(servers[1]!, `/agent/runs/${id}/cancel`, {})).status).toBeLessThan(300);
    await expect.poll(() => agentBeats(join(workDir, 'runs'), id), { timeout: 5_000, interval: 0 }).toBe(false);
    expect(performance.now() - sent).toBeLessThan(2_500);
    expect((await api(servers[0]!, `/agent/runs/${id}`)).body.state).toBe('CANCELLED');
  }, 30_000);

  it("a follow-up sent to the other server reaches the running agent's inbox at once", async () => {
    const id = await started('inbox');
    const sent = performance.now();
    expect((await api(servers[1]!, `/agent/runs/${id}/followups`, { message: 'from the other server' })).status).toBeLessThan(300);
    await expect.poll(async () => JSON.stringify((await api(servers[1]!, `/agent/runs/${id}/output`)).body), { timeout: 5_000, interval: 50 }).toContain('got from the other server');
    expect(performance.now() - sent).toBeLessThan(2_500);
  }, 30_000);
});
