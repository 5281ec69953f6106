import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer } from '../../src/index.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../../test/support/postgres.js';
import { nodeAgentCommand } from '../support/node-agent.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

const KEY = 'lost-server-key-0123456789';

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): the follow-up after a lost server test is SKIPPED. ***\n');

const dir = mkdtempSync(join(tmpdir(), 'agent-runs-lost-server-'));
// The agent runs as the agent user where the test runs as root: it may write its notes here.
chmodSync(dir, 0o777);
const journal = join(dir, 'journal.txt');
const firstPid = join(dir, 'first.pid');
// Reproduction: the first execution works until its server is killed (it outlives it); the next ends at once.
const agent = `
  const fs = require('node:fs');
  fs.appendFileSync(${JSON.stringify(journal)}, 'start ' + process.env.AGENT_RUNS_EXECUTION + '\\n');
  if (!fs.existsSync(${JSON.stringify(firstPid)})) { fs.writeFileSync(${JSON.stringify(firstPid)}, String(process.pid)); setInterval(() => {}, 1000); }`;

/**
 * Two servers on one PostgreSQL; the one executing a run is killed with kill -9. The other
 * fails the run once its lease runs out, and ends its execution in the conversation, since no
 * result will ever come from the dead server: a follow-up's execution does not wait for one.
 */
describe.runIf(postgresAdminUrl && process.platform === 'linux')('a follow-up to a run whose server died with it', () => {
  let db: TestDatabase;
  let dead: ServerProcess | undefined;
  let alive: RunningServer | undefined;
  const clients: AgentRunsClient[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  }, 30_000);

  afterAll(async () => {
    if (dead && dead.child.exitCode === null && dead.child.signalCode === null) dead.child.kill('SIGKILL');
    // The dead server's agent outlived it.
    if (existsSync(firstPid)) {
      try {
        process.kill(Number(readFileSync(firstPid, 'utf8')), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await Promise.all(clients.map((c) => c.close()));
    await alive?.close();
    await db?.drop();
  }, 30_000);

  it('ends the lost execution in the conversation, and answers the follow-up with execution 2', async () => {
    // The first server is alone when the run is created, so it executes it.
    dead = await startServerProcess(['--database-url', db.url, '--api-key', `team=${KEY}`, '--command', nodeAgentCommand(agent), '--lease', '2s', '--sandbox', 'off']);
    const first = new AgentRunsClient({ baseURL: dead.baseURL, apiKey: KEY, maxRetries: 0 });
    clients.push(first);
    const { run_id } = await first.runs.create({ prompt: 'Work until stopped' });
    await expect.poll(() => existsSync(firstPid), { timeout: 15_000, interval: 50 }).toBe(true);
    alive = await startServer({ port: 0, quiet: true, databaseUrl: db.url, apiKeys: [{ key: KEY, principal: 'team' }], command: nodeAgentCommand(agent), leaseMs: 2000, sandbox: 'off' });
    const second = new AgentRunsClient({ baseURL: alive.baseURL, apiKey: KEY, maxRetries: 0 });
    clients.push(second);

    dead.child.kill('SIGKILL');
    await dead.exited;
    await expect.poll(async () => (await second.runs.get(run_id)).state, { timeout: 15_000, interval: 100 }).toBe('FAILED');
    // The execution the dead server started has its end, saying why.
    await expect.poll(async () => (await second.runs.conversation(run_id)).steps[0]?.summary, { timeout: 5000, interval: 100 }).toMatch(/stopped renewing its lease/);

    await second.runs.followup(run_id, { message: 'Try again' });
    const run = await second.runs.wait(run_id, { pollInterval: 100, timeout: 20_000 });
    expect(run.state).toBe('SUCCEEDED');
    expect(readFileSync(journal, 'utf8').trim().split('\n')).toEqual(['start 1', 'start 2']);
    expect((await second.runs.conversation(run_id)).steps).toHaveLength(2);
  }, 60_000);
});
