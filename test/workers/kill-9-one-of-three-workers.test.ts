import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, isTerminalState } from '@agent-runs/core';
import { startServerProcess, type ServerProcess } from '../../packages/server/test/support/server-process.js';
import { startWorkerProcess, type WorkerProcess } from '../../packages/server/test/support/worker-process.js';
import { writeAgentScript } from '../support/command-agent.js';

const KEY = 'workers-test-key-0123456789';
const TOKEN = 'pool-worker-token-0123456789abcdef';
const RUNS = 300;
const CLIENTS = 6;
/** The server's lease on the workers' runs: a killed worker's runs end within about 4/3 of it. */
const LEASE_S = 8;

/**
 * One server (SQLite), three worker processes of one pool, 300 runs; one worker killed with
 * kill -9 while it executes runs. The workers are the real `agent-runs-worker`, each running
 * the real command agent, which logs which worker started which run in a file they share.
 */
describe.runIf(process.platform === 'linux')('three workers of one pool, one killed with kill -9', () => {
  let server: ServerProcess;
  const workers: WorkerProcess[] = [];
  let agent: { dir: string; command: string };

  beforeAll(async () => {
    agent = writeAgentScript(
      `printf 'start %s %s\\n' "$AGENT_RUNS_RUN_ID" "$WORKER_NAME" >> "$AGENT_LOG"\nsleep 0.$(( $(od -An -N1 -tu1 /dev/urandom) % 6 + 2 ))\necho done\n`,
    );
    const config = join(agent.dir, 'server.yaml');
    writeFileSync(config, `workers:\n  pool:\n    token: { from_env: POOL_WORKER_TOKEN }\n    worker_hosts: [pool]\n`);
    server = await startServerProcess(['--memory', '--api-key', KEY, '--config', config, '--lease', `${LEASE_S}s`], {
      ...process.env,
      POOL_WORKER_TOKEN: TOKEN,
    });
    const origin = new URL(server.baseURL).origin;
    for (const name of ['w1', 'w2', 'w3']) {
      workers.push(
        await startWorkerProcess(
          ['--server', origin, '--worker-host', 'pool', '--command', agent.command, '--concurrency', '4', '--sandbox', 'off', '--agent-env', 'WORKER_NAME', '--agent-env', 'AGENT_LOG'],
          TOKEN,
          { ...process.env, WORKER_NAME: name, AGENT_LOG: join(agent.dir, 'executions.log') },
        ),
      );
    }
  }, 60_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
    await Promise.all([...workers.map((w) => w.exited), server?.exited]);
  }, 60_000);

  it('ends every run exactly once, executes none twice, and fails the killed worker\'s runs within the lease bound', async () => {
    const clients = Array.from({ length: CLIENTS }, () => new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY }));
    const ids = (
      await Promise.all(
        clients.map(async (client, c) => {
          const made: string[] = [];
          for (let i = c; i < RUNS; i += CLIENTS) made.push((await client.runs.create({ prompt: `run ${i}`, config: { worker_host: 'pool' } })).run_id);
          return made;
        }),
      )
    ).flat();
    expect(new Set(ids).size).toBe(RUNS);

    const log = () => readFileSync(join(agent.dir, 'executions.log'), 'utf8');
    await expect.poll(() => (log().match(/ w1$/gm) ?? []).length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(8);
    workers[0]!.child.kill('SIGKILL');
    await workers[0]!.exited;
    const killedAt = Date.now();

    const client = clients[0]!;
    const all = async () => {
      const runs = [];
      for await (const run of client.runs.list({ limit: 100 })) runs.push(run);
      return runs;
    };
    // The killed worker's runs in flight end within about 4/3 of the lease (and some slack for a loaded machine).
    const w1Runs = () => new Set(log().split('\n').filter((l) => l.endsWith(' w1')).map((l) => l.split(' ')[1]!));
    await expect
      .poll(async () => (await all()).filter((r) => w1Runs().has(r.run_id) && !isTerminalState(r.state)).length, { timeout: 30_000, interval: 250 })
      .toBe(0);
    expect(Date.now() - killedAt).toBeLessThan(LEASE_S * 1000 * (4 / 3) + 8_000);

    // The others take the rest of the queue.
    await expect.poll(async () => (await all()).filter((r) => !isTerminalState(r.state)).length, { timeout: 120_000, interval: 500 }).toBe(0);
    const runs = await all();
    expect(runs.map((r) => r.run_id).sort()).toEqual([...ids].sort());

    const starts = new Map<string, string[]>();
    for (const line of log().trim().split('\n')) {
      const [, runId, worker] = line.split(' ');
      starts.set(runId!, [...(starts.get(runId!) ?? []), worker!]);
    }
    for (const run of runs) {
      const by = starts.get(run.run_id) ?? [];
      expect(by.length, `executions of ${run.run_id}`).toBeLessThanOrEqual(1);
      if (run.state === 'FAILED') {
        // Only the killed worker's runs fail (those it had claimed, started or not), naming it.
        expect(by[0] ?? 'w1', `${run.run_id}: ${run.status_message?.message}`).toBe('w1');
        expect(run.status_message?.message).toMatch(/worker.*pool.*stopped renewing its lease/i);
      } else {
        expect(run.state).toBe('SUCCEEDED');
        expect(by).toHaveLength(1);
      }
    }
    expect(runs.filter((r) => r.state === 'SUCCEEDED').length).toBeGreaterThan(RUNS - 16);
    await Promise.all(clients.map((c) => c.close()));
  }, 240_000);
});
