import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, isTerminalState } from '@agent-runs/core';
import { startServerProcess, type ServerProcess } from '../../packages/server/test/support/server-process.js';
import { writeAgentScript } from '../support/command-agent.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../support/postgres.js';

const KEY = 'cluster-test-key-0123456789';
const RUNS = 300;
const CLIENTS = 6;

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): the three-server kill -9 test is SKIPPED. ***\n');

describe.runIf(postgresAdminUrl && process.platform === 'linux')('three servers on one PostgreSQL database, one killed with kill -9', () => {
  let db: TestDatabase;
  const servers: ServerProcess[] = [];
  let agent: { dir: string; command: string };

  beforeAll(async () => {
    // The lease outlasts the stalls of a loaded machine: a live server that misses it is taken as dead.
    db = await createTestDatabase();
    // Each execution says which server started it, before it works for a moment.
    agent = writeAgentScript(
      `printf 'start %s %s\\n' "$AGENT_RUNS_RUN_ID" "$SERVER_NAME" >> "$AGENT_LOG"\nsleep 0.$(( $(od -An -N1 -tu1 /dev/urandom) % 6 + 2 ))\necho done\n`,
    );
    for (const name of ['s1', 's2', 's3']) {
      servers.push(
        await startServerProcess(
          ['--database-url', db.url, '--api-key', KEY, '--command', agent.command, '--concurrency', '4', '--lease', '5s', '--agent-env', 'SERVER_NAME', '--agent-env', 'AGENT_LOG', '--sandbox', 'off'], // Agents log to a shared file outside their runs.
          { ...process.env, SERVER_NAME: name, AGENT_LOG: join(agent.dir, 'executions.log') },
        ),
      );
    }
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
    await db?.drop();
  }, 60_000);

  it('ends every run exactly once, executes none twice and loses none', async () => {
    // Several clients on every server create at once.
    const clients = Array.from({ length: CLIENTS }, (_, i) => new AgentRunsClient({ baseURL: servers[i % 3]!.baseURL, apiKey: KEY }));
    const ids = (
      await Promise.all(
        clients.map(async (client, c) => {
          const made: string[] = [];
          for (let i = c; i < RUNS; i += CLIENTS) made.push((await client.runs.create({ prompt: `run ${i}` })).run_id);
          return made;
        }),
      )
    ).flat();
    expect(new Set(ids).size).toBe(RUNS);

    // kill -9 the first server while it executes runs.
    const log = () => readFileSync(join(agent.dir, 'executions.log'), 'utf8');
    await expect.poll(() => (log().match(/ s1$/gm) ?? []).length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(8);
    const killedPid = servers[0]!.child.pid!;
    servers[0]!.child.kill('SIGKILL');
    await servers[0]!.exited;
    const survivor = new AgentRunsClient({ baseURL: servers[1]!.baseURL, apiKey: KEY });

    // Nothing stays QUEUED or INPROGRESS: the others take the queue and fail the dead server's runs.
    const all = async () => {
      const runs = [];
      for await (const run of survivor.runs.list({ limit: 100 })) runs.push(run);
      return runs;
    };
    await expect.poll(async () => (await all()).filter((r) => !isTerminalState(r.state)).length, { timeout: 120_000, interval: 500 }).toBe(0);
    const runs = await all();
    expect(runs.map((r) => r.run_id).sort()).toEqual([...ids].sort());

    const starts = new Map<string, string[]>();
    for (const line of log().trim().split('\n')) {
      const [, runId, server] = line.split(' ');
      starts.set(runId!, [...(starts.get(runId!) ?? []), server!]);
    }
    for (const run of runs) {
      const by = starts.get(run.run_id) ?? [];
      // Executed by one server at most once; every run that succeeded, exactly once.
      expect(by.length, `executions of ${run.run_id}`).toBeLessThanOrEqual(1);
      if (run.state === 'FAILED') {
        // Only the dead server's runs fail (those it had claimed, started or not), saying why and naming it.
        expect(by[0] ?? 's1').toBe('s1');
        expect(run.status_message?.message).toMatch(new RegExp(`:${killedPid}:.*stopped renewing its lease`));
      } else {
        expect(run.state).toBe('SUCCEEDED');
        expect(by).toHaveLength(1);
      }
    }
    expect(runs.filter((r) => r.state === 'SUCCEEDED').length).toBeGreaterThan(RUNS - 8);

    // Each run's log ends once: one terminal `run` event per run, also for the runs the dead
    // server ended without logging it (another server logs them after a grace period).
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const ends = async () =>
      (
        await client.query<{ run_id: string; ends: string }>(
          `SELECT run_id, count(*) AS ends FROM run_events
           WHERE kind = 'run' AND (data::json->>'state') IN ('SUCCEEDED', 'FAILED', 'CANCELLED', 'ERROR', 'BLOCKED')
           GROUP BY run_id`,
        )
      ).rows;
    try {
      await expect.poll(async () => (await ends()).length, { timeout: 30_000, interval: 1000 }).toBe(RUNS);
      expect((await ends()).filter((r) => Number(r.ends) !== 1)).toEqual([]);
    } finally {
      await client.end();
    }
    await Promise.all([...clients, survivor].map((c) => c.close()));
  }, 240_000);
});
