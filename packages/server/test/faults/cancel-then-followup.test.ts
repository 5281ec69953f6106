import { chmodSync, mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeAgentCommand } from '../support/node-agent.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-runs-cancel-followup-'));
const workDir = mkdtempSync(join(tmpdir(), 'agent-runs-cancel-followup-work-'));
// The agent runs as the agent user where the test runs as root: it may write its notes here.
chmodSync(dir, 0o777);
const journal = join(dir, 'journal.txt');
// Reproduction: an agent that takes a second to clean up after SIGTERM, as real agents do.
// It notes when each execution starts and when its process ends.
const agent = `
  const fs = require('node:fs');
  const note = (what) => fs.appendFileSync(${JSON.stringify(journal)}, what + ' ' + process.env.AGENT_RUNS_EXECUTION + ' ' + Date.now() + '\\n');
  // Ready for the cancel before it says it started: a SIGTERM that came first would end it
  // at once, and the next agent would take it for the first and work until stopped.
  process.on('SIGTERM', () => setTimeout(() => { note('end'); process.exit(0); }, 1000));
  process.on('exit', () => note('exit'));
  // Only the first agent works until stopped; the next ends at once.
  const marker = ${JSON.stringify(join(dir, 'first-started'))};
  const first = !fs.existsSync(marker);
  if (first) fs.writeFileSync(marker, '');
  note('start');
  if (first) setInterval(() => {}, 1000);`;

describe('a follow-up sent right after a cancel', () => {
  let t: TestServer;
  beforeAll(async () => {
    // Bare: the agent notes its life in a journal outside its own directory, which a sandbox forbids.
    t = await startTestServer({ executor: 'command', command: nodeAgentCommand(agent), workDir, concurrency: 2, sandbox: 'off' });
  });
  afterAll(() => t.close());

  it('starts the next execution only once the cancelled one is gone, numbered after it', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Work until stopped' });
    await expect.poll(() => existsSync(journal) && readFileSync(journal, 'utf8').includes('start 1'), { timeout: 15_000, interval: 20 }).toBe(true);
    await t.client.runs.cancel(run_id);
    await t.client.runs.followup(run_id, { message: 'Now do this instead' });
    // Bounded: a run that never ends fails here, and leaves no stream open for the close to wait on.
    const run = await t.client.runs.wait(run_id, { pollInterval: 50, timeout: 15_000 });
    expect(run.state).toBe('SUCCEEDED');

    const lines = readFileSync(journal, 'utf8').trim().split('\n').map((l) => l.split(' '));
    const at = (what: string, n: string) => Number(lines.find(([w, e]) => w === what && e === n)?.[2]);
    expect(lines.filter(([w]) => w === 'start').map(([, e]) => e)).toEqual(['1', '2']);
    // The first agent's process ended before the second started; they never ran side by side.
    expect(at('exit', '1')).toBeLessThanOrEqual(at('start', '2'));
    const steps = (await t.raw(`/api/v1/agent/runs/${run_id}/conversation`)).body.steps;
    expect(steps).toHaveLength(2);
  });
});
