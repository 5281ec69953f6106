import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer } from '../../src/index.js';
import { nodeAgentCommand } from '../support/node-agent.js';
import { writeServerConfig } from '../support/server-config.js';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';

// Reproduction: an agent asked (by its prompt) to read and write another run's files.
const agent = `
  const fs = require('node:fs');
  const target = require('node:fs').readFileSync(0, 'utf8').trim();
  if (target === 'nothing') process.exit(0);
  if (target === 'whoami') { console.log('setup ' + fs.readFileSync('setup-uid.txt', 'utf8').trim() + ' agent ' + process.getuid()); process.exit(0); }
  try { console.log('read: ' + fs.readFileSync(target + '/mcp.json', 'utf8').length + ' bytes'); } catch (error) { console.log('read refused: ' + error.code); }
  try { fs.writeFileSync(target + '/planted.txt', 'x'); console.log('write: done'); } catch (error) { console.log('write refused: ' + error.code); }
  console.log('uid ' + process.getuid());`;

/** Alice's run, then Bob's, whose agent tries Alice's mcp.json: what Bob's agent printed. */
async function bobReadsAlice(options: { agentUidRange?: string }): Promise<{ output: string; aliceDir: string }> {
  const workDir = mkdtempSync(join(tmpdir(), 'agent-runs-uid-per-principal-'));
  const server: RunningServer = await startServer({
    port: 0,
    quiet: true,
    storage: 'memory',
    command: nodeAgentCommand(agent),
    workDir,
    sandbox: 'off',
    apiKeys: [
      { key: ALICE, principal: 'alice' },
      { key: BOB, principal: 'bob' },
    ],
    ...options,
  });
  const alice = new AgentRunsClient({ baseURL: server.baseURL, apiKey: ALICE, maxRetries: 0 });
  const bob = new AgentRunsClient({ baseURL: server.baseURL, apiKey: BOB, maxRetries: 0 });
  try {
    const a = await alice.runs.create({ prompt: 'nothing' });
    expect((await alice.runs.wait(a.run_id, { pollInterval: 50 })).state).toBe('SUCCEEDED');
    const aliceDir = join(workDir, a.run_id);
    const b = await bob.runs.create({ prompt: aliceDir });
    expect((await bob.runs.wait(b.run_id, { pollInterval: 50 })).state).toBe('SUCCEEDED');
    return { output: (await bob.runs.output(b.run_id)).text, aliceDir };
  } finally {
    await alice.close();
    await bob.close();
    await server.close();
  }
}

describe.runIf(process.platform === 'linux' && process.getuid?.() === 0)('agents of two principals on a root server with the sandbox off', () => {
  let kept: { output: string; aliceDir: string };
  let shared: { output: string; aliceDir: string };
  beforeAll(async () => {
    kept = await bobReadsAlice({ agentUidRange: '61000-61999' });
    shared = await bobReadsAlice({});
  }, 30_000);

  it('with --agent-uid-range, runs each principal as a uid of its own: the other cannot read or write its run', () => {
    expect(kept.output).toContain('read refused: EACCES');
    expect(kept.output).toContain('write refused: EACCES');
    const owner = statSync(kept.aliceDir).uid;
    expect(owner).toBeGreaterThanOrEqual(61000);
    expect(owner).toBeLessThanOrEqual(61999);
    expect(statSync(kept.aliceDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(kept.aliceDir, 'mcp.json')).uid).toBe(owner);
    // Bob's agent ran as another uid of the range.
    const bobUid = Number(/uid (\d+)/.exec(kept.output)?.[1]);
    expect(bobUid).toBeGreaterThanOrEqual(61000);
    expect(bobUid).not.toBe(owner);
  });

  it('without it, every agent is the one agent user, and reads the other run (what the start-up warning says)', () => {
    expect(shared.output).toMatch(/read: \d+ bytes/);
    expect(shared.output).toContain('write: done');
  });

  it('refuses to start when two principals would share a uid of the range, naming the option', async () => {
    const start = startServer({
      port: 0,
      quiet: true,
      storage: 'memory',
      command: 'true',
      workDir: mkdtempSync(join(tmpdir(), 'agent-runs-uid-per-principal-')),
      sandbox: 'off',
      agentUidRange: '61000-61000',
      apiKeys: [
        { key: ALICE, principal: 'alice' },
        { key: BOB, principal: 'bob' },
      ],
    });
    await expect(start).rejects.toThrow(/agentUidRange \(--agent-uid-range\) gives principals "alice" and "bob" the same uid 61000/);
  });

  it('refuses a range that is not first-last from 1000 up', async () => {
    const start = startServer({ port: 0, quiet: true, storage: 'memory', command: 'true', sandbox: 'off', agentUidRange: '0-70000' });
    await expect(start).rejects.toThrow(/agentUidRange \(--agent-uid-range\) must be "first-last" with 1000 <= first <= last, got "0-70000"/);
  });

  it("runs an environment's setup commands as the principal's uid too, so its agent owns what they made", async () => {
    const server = await startServer({
      port: 0,
      quiet: true,
      storage: 'memory',
      command: nodeAgentCommand(agent),
      workDir: mkdtempSync(join(tmpdir(), 'agent-runs-uid-per-principal-')),
      configFile: writeServerConfig({ environments: { setup: { setup_commands: ['id -u > setup-uid.txt'] } } }),
      sandbox: 'off',
      agentUidRange: '61000-61999',
      apiKeys: [{ key: ALICE, principal: 'alice' }],
    });
    const alice = new AgentRunsClient({ baseURL: server.baseURL, apiKey: ALICE, maxRetries: 0 });
    try {
      const { run_id } = await alice.runs.create({ prompt: 'whoami', config: { environment_id: 'setup' } });
      expect((await alice.runs.wait(run_id, { pollInterval: 50 })).state).toBe('SUCCEEDED');
      const [, setup, own] = /setup (\d+) agent (\d+)/.exec((await alice.runs.output(run_id)).text) ?? [];
      expect(Number(own)).toBeGreaterThanOrEqual(61000);
      expect(setup).toBe(own);
    } finally {
      await alice.close();
      await server.close();
    }
  });
});
