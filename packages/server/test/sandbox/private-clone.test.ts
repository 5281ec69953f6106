import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { probeAgentCommand } from './probe-agent.js';

/**
 * An operator's local repository the agent's user cannot read: the server's user clones it
 * into the run's directory and hands the clone on, every entry of it, links changed
 * themselves and never followed.
 */
const asRoot = process.getuid?.() === 0;
const workRoot = tempTree({}, 'agent-runs-clone-work-');
const outside = tempTree({ 'kept.txt': 'the server user\'s\n' }, 'agent-runs-clone-outside-');
let repo: string;
let t: TestServer;

beforeAll(async () => {
  repo = tempTree({ 'README.md': 'hello\n', 'src/deep/a/b/file.txt': 'deep\n' }, 'agent-runs-clone-repo-');
  symlinkSync(join(outside, 'kept.txt'), join(repo, 'outside-link'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('init', '--quiet');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '--quiet', '-m', 'first');
  // Readable by the server's user only.
  chmodSync(repo, 0o700);
  t = await startTestServer({
    storage: 'memory',
    workDir: workRoot,
    executor: 'command',
    command: probeAgentCommand,
    sandbox: 'on',
    network: 'none',
    configFile: writeServerConfig({ environments: { private: { repos: [{ url: `file://${repo}`, path: 'repo' }] } } }),
  });
});
afterAll(async () => {
  await t?.close();
});

describe.runIf(asRoot)('a private local repository', () => {
  it("is cloned by the server's user and handed to the agent's, which writes in it at any depth; a link in it is changed itself, its target never", async () => {
    const { run_id } = await t.client.runs.create({
      prompt: JSON.stringify({ write: ['repo/new.txt', 'repo/src/deep/a/b/new.txt', 'repo/src/deep/a/b/file.txt'] }),
      config: { environment_id: 'private' },
    });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const result = JSON.parse(readFileSync(join(workRoot, run_id, 'result.json'), 'utf8'));
    expect(result).toMatchObject({ 'write repo/new.txt': 'ok', 'write repo/src/deep/a/b/new.txt': 'ok', 'write repo/src/deep/a/b/file.txt': 'ok' });
    const agentUid = result.uid as number;
    expect(agentUid).not.toBe(0);
    const clone = join(workRoot, run_id, 'repo');
    for (const path of ['.', 'src/deep/a/b', 'src/deep/a/b/file.txt', '.git/HEAD']) expect(statSync(join(clone, path)).uid, path).toBe(agentUid);
    expect(lstatSync(join(clone, 'outside-link')).uid).toBe(agentUid);
    expect(statSync(join(outside, 'kept.txt')).uid).toBe(0);
    expect(readFileSync(join(outside, 'kept.txt'), 'utf8')).toBe("the server user's\n");
  });
});
