import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, isTerminalState } from '@agent-runs/core';
import { startServerProcess, type ServerProcess } from '../../packages/server/test/support/server-process.js';
import { startWorkerProcess, type WorkerProcess } from '../../packages/server/test/support/worker-process.js';
import { writeAgentScript } from '../support/command-agent.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../support/postgres.js';

const KEY = 'workers-pg-test-key-0123456789';
const TOKEN = 'pool-worker-token-pg-0123456789abcdef';

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): the workers-across-servers test is SKIPPED. ***\n');

/**
 * Two servers on one PostgreSQL database, a worker connected to each (and told of both);
 * one server killed with kill -9: the workers carry on through the other, the runs they
 * hold included (their leases are in the database, not in the server that gave them).
 */
describe.runIf(postgresAdminUrl && process.platform === 'linux')('workers of two servers on one PostgreSQL database, one server killed', () => {
  let db: TestDatabase;
  const servers: ServerProcess[] = [];
  const workers: WorkerProcess[] = [];
  let agent: { dir: string; command: string };

  beforeAll(async () => {
    db = await createTestDatabase();
    // A run sleeps as long as its prompt says, after logging which worker started it.
    agent = writeAgentScript(`printf 'start %s %s\\n' "$AGENT_RUNS_RUN_ID" "$WORKER_NAME" >> "$AGENT_LOG"\nsleep "$(cat)"\necho done\n`);
    const config = join(agent.dir, 'server.yaml');
    writeFileSync(config, `workers:\n  pool:\n    token: { from_env: POOL_WORKER_TOKEN }\n    worker_hosts: [pool]\n`);
    // A 12 s lease: a worker whose server dies has until its fence (lease less 2 s) to reach the
    // other through its next --server; 5 s, then 8 s, left too little on a loaded machine.
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startServerProcess(['--database-url', db.url, '--api-key', KEY, '--config', config, '--lease', '12s'], { ...process.env, POOL_WORKER_TOKEN: TOKEN }),
      );
    }
    const [first, second] = servers.map((s) => new URL(s.baseURL).origin);
    for (const [name, order] of [['w1', [first!, second!]], ['w2', [second!, first!]]] as const) {
      workers.push(
        await startWorkerProcess(
          ['--server', order[0], '--server', order[1], '--worker-host', 'pool', '--command', agent.command, '--concurrency', '2', '--sandbox', 'off', '--agent-env', 'WORKER_NAME', '--agent-env', 'AGENT_LOG'],
          TOKEN,
          { ...process.env, WORKER_NAME: name, AGENT_LOG: join(agent.dir, 'executions.log') },
        ),
      );
    }
  }, 60_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all([...workers.map((w) => w.exited), ...servers.map((s) => s.exited)]);
    await db?.drop();
  }, 60_000);

  it('the workers of the killed server carry on through the other, with the runs they hold', async () => {
    const survivor = new AgentRunsClient({ baseURL: servers[1]!.baseURL, apiKey: KEY });
    // Four runs of 6 s: each worker holds two while the first server is killed.
    const long = await Promise.all([0, 1, 2, 3].map(() => survivor.runs.create({ prompt: '6', config: { worker_host: 'pool' } })));
    const log = () => readFileSync(join(agent.dir, 'executions.log'), 'utf8');
    await expect.poll(() => (log().match(/^start /gm) ?? []).length, { timeout: 30_000, interval: 100 }).toBe(4);
    servers[0]!.child.kill('SIGKILL');
    await servers[0]!.exited;

    // The runs held through the dead server end SUCCEEDED: their leases were renewed through the other.
    for (const { run_id } of long) {
      await expect.poll(async () => isTerminalState((await survivor.runs.get(run_id)).state), { timeout: 30_000, interval: 250 }).toBe(true);
      const run = await survivor.runs.get(run_id);
      expect(run.state, `${run.status_message?.message}\n${workers.map((w) => w.stderr()).join('\n')}`).toBe('SUCCEEDED');
    }
    // And both workers take new runs through the survivor.
    const next = await Promise.all([0, 1, 2, 3, 4, 5].map(() => survivor.runs.create({ prompt: '0.5', config: { worker_host: 'pool' } })));
    for (const { run_id } of next) {
      await expect.poll(async () => (await survivor.runs.get(run_id)).state, { timeout: 30_000, interval: 250 }).toSatisfy((s: string) => isTerminalState(s));
      expect((await survivor.runs.get(run_id)).state).toBe('SUCCEEDED');
    }
    const byWorker = (name: string) => (log().match(new RegExp(` ${name}$`, 'gm')) ?? []).length;
    expect(byWorker('w1') + byWorker('w2')).toBe(10);
    const listed = await survivor.workers.list();
    expect(listed.workers.map((w) => w.worker_host)).toEqual(['pool', 'pool']);
    await survivor.close();
  }, 120_000);
});
