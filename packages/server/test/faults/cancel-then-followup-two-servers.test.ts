import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer } from '../../src/index.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../../test/support/postgres.js';
import { nodeAgentCommand } from '../support/node-agent.js';

const KEY = 'cancel-followup-key-0123456789';

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): the cancel-then-follow-up test across servers is SKIPPED. ***\n');

const dir = mkdtempSync(join(tmpdir(), 'agent-runs-cancel-followup-2-'));
// The agent runs as the agent user where the test runs as root: it may write its notes here.
chmodSync(dir, 0o777);
const journal = join(dir, 'journal.txt');
// Reproduction: an agent that takes a second to clean up after SIGTERM, as real agents do. It
// notes each execution's start and end, and whether the first execution's process is still
// alive when another starts.
const agent = `
  const fs = require('node:fs');
  const n = process.env.AGENT_RUNS_EXECUTION;
  const note = (what) => fs.appendFileSync(${JSON.stringify(journal)}, what + ' ' + n + ' ' + Date.now() + '\\n');
  const firstPid = ${JSON.stringify(join(dir, 'first.pid'))};
  if (fs.existsSync(firstPid)) {
    const pid = Number(fs.readFileSync(firstPid, 'utf8'));
    // Alive unless gone or a zombie (an orphan whose reaper may be slow to collect it).
    let alive = false;
    try { alive = !/^\\d+ \\(.*\\) Z/s.test(fs.readFileSync('/proc/' + pid + '/stat', 'utf8')); } catch {}
    note(alive ? 'first-alive' : 'first-gone');
  }
  // Ready for the cancel before it says it started: a SIGTERM that came first would end it
  // at once, and the next agent would take it for the first and work until stopped.
  process.on('SIGTERM', () => setTimeout(() => { note('end'); process.exit(0); }, 1500));
  process.on('exit', () => note('exit'));
  // Only the first agent works until stopped; the next ends at once.
  const first = !fs.existsSync(firstPid);
  if (first) fs.writeFileSync(firstPid, String(process.pid));
  note('start');
  if (first) setInterval(() => {}, 1000);`;

/**
 * Two servers on one PostgreSQL: the run executes on the first; through the second it is
 * cancelled and followed up at once. The second claims the requeued run while the first still
 * ends the cancelled agent (the first, with one slot held by the stopping execution, cannot).
 */
describe.runIf(postgresAdminUrl && process.platform === 'linux')('a follow-up sent right after a cancel, on another server than the one executing', () => {
  let db: TestDatabase;
  const servers: RunningServer[] = [];
  const clients: AgentRunsClient[] = [];
  const serve = async (concurrency: number) => {
    // Bare: the agent notes its life in a journal outside its own directory, which a sandbox forbids.
    const server = await startServer({ port: 0, quiet: true, databaseUrl: db.url, apiKeys: [{ key: KEY, principal: 'team' }], command: nodeAgentCommand(agent), concurrency, leaseMs: 2000, sandbox: 'off' });
    servers.push(server);
    const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  }, 30_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.close()));
    await db?.drop();
  }, 30_000);

  it('starts the next execution, on whichever server, only once the cancelled one is gone and recorded, numbered 2', async () => {
    // The first server is alone when the run is created, so it executes it.
    const first = await serve(1);
    const { run_id } = await first.runs.create({ prompt: 'Work until stopped' });
    await expect.poll(() => existsSync(journal) && readFileSync(journal, 'utf8').includes('start 1'), { timeout: 15_000, interval: 20 }).toBe(true);
    const second = await serve(2);

    await second.runs.cancel(run_id);
    await second.runs.followup(run_id, { message: 'Now do this instead' });
    await expect.poll(async () => (await second.runs.conversation(run_id)).steps.length, { timeout: 20_000, interval: 100 }).toBe(2);
    const run = await second.runs.wait(run_id, { pollInterval: 100, timeout: 20_000 });
    expect(run.state).toBe('SUCCEEDED');

    const lines = readFileSync(journal, 'utf8').trim().split('\n').map((l) => l.split(' '));
    const at = (what: string, n: string) => Number(lines.find(([w, e]) => w === what && e === n)?.[2]);
    // Numbered 1 and 2: the second is not taken for the first again.
    expect(lines.filter(([w]) => w === 'start').map(([, e]) => e)).toEqual(['1', '2']);
    // The first agent's process had ended before the second started; they never ran side by side.
    expect(lines.filter(([w]) => w?.startsWith('first-')).map(([w]) => w)).toEqual(['first-gone']);
    expect(at('exit', '1')).toBeLessThanOrEqual(at('start', '2'));
    // One step per execution: the stopped one, then the one answering the follow-up.
    const steps = (await second.runs.conversation(run_id)).steps;
    expect(steps.map((s) => s.summary)).toEqual(['The execution was stopped.', expect.any(String)]);
    expect(steps[1]!.description).toBe('Now do this instead');
  });
});
