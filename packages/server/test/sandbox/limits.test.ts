import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeAgentCommand } from '../support/node-agent.js';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

/**
 * An agent that tries to grow past its sandbox: a user namespace of its own, a file larger
 * than its /tmp, more processes than it may hold. It writes what happened to result.json.
 */
const GREEDY = `
const fs = require('node:fs'), { spawn, spawnSync } = require('node:child_process');
(async () => {
  const out = {};
  const unshare = spawnSync('unshare', ['-U', '-r', 'true'], { encoding: 'utf8' });
  out.unshare = unshare.status;
  const tmp = fs.statfsSync('/tmp');
  out.tmpBytes = tmp.blocks * tmp.bsize;
  try { fs.writeFileSync('/tmp/big', Buffer.alloc(32 * 1048576)); out.big = 'ok'; } catch (e) { out.big = e.code; }
  fs.rmSync('/tmp/big', { force: true });
  const children = [];
  out.started = 0; out.refused = 0;
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => {
      const child = spawn('sleep', ['30'], { stdio: 'ignore' });
      child.once('spawn', () => { out.started++; children.push(child); resolve(); });
      child.once('error', (e) => { out.refused++; out.refusedWith = e.code; resolve(); });
    });
  }
  for (const child of children) child.kill('SIGKILL');
  fs.writeFileSync('result.json', JSON.stringify(out));
})();`;

const workRoot = tempTree({}, 'agent-runs-limits-work-');
let t: TestServer;

beforeAll(async () => {
  const configFile = writeServerConfig({ sandbox_tmp_size_mb: 16, sandbox_max_processes: 48 });
  t = await startTestServer({ executor: 'command', command: nodeAgentCommand(GREEDY), workDir: workRoot, sandbox: 'on', network: 'none', configFile });
});
afterAll(async () => {
  await t?.close();
});

describe('an agent in the sandbox, within its limits', () => {
  it('cannot make a user namespace, fill more /tmp than sandbox_tmp_size_mb, or hold more than sandbox_max_processes processes', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'grow' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 50, timeout: 90_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const result = JSON.parse(readFileSync(join(workRoot, run_id, 'result.json'), 'utf8'));
    expect(result).toMatchObject({ unshare: 1, tmpBytes: 16 * 1048576, big: 'ENOSPC', refusedWith: 'EAGAIN' });
    // Node's own threads count too: fewer than 48 sleeps start, and the rest of the 100 are refused.
    expect(result.started).toBeGreaterThan(0);
    expect(result.started).toBeLessThan(48);
    expect(result.started + result.refused).toBe(100);
  }, 120_000);
});
