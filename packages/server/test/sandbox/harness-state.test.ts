import { execFileSync } from 'node:child_process';
import { chownSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { giveTree, reclaimTree } from '../../src/executors/agent-files.js';
import { walkAgentTree } from '../../src/executors/agent-tree.js';
import { modelHosts } from '../../src/executors/harness/harness-executor.js';
import { claudeDriver } from '../../src/executors/harness/claude-driver.js';
import { installRoot } from '../../src/executors/sandbox/install-root.js';
import { allowAlso } from '../../src/executors/sandbox/network-policy.js';
import { spawnAgent } from '../../src/executors/agent-spawn.js';
import { chooseSandbox } from '../../src/executors/sandbox/choose-sandbox.js';

const isRoot = process.getuid?.() === 0;

describe("a harness's state directory between executions", () => {
  it('keeps directories and regular files, and removes links, FIFOs and hard links, following none', () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-runs-state-'));
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'server file\n');
    const state = join(root, 'state');
    mkdirSync(join(state, 'projects', 'p'), { recursive: true });
    writeFileSync(join(state, 'projects', 'p', 'session.jsonl'), '{}\n');
    writeFileSync(join(state, 'settings.json'), '{}\n');
    symlinkSync(outside, join(state, 'mcp.json'));
    symlinkSync(root, join(state, 'projects', 'up'));
    execFileSync('mkfifo', [join(state, 'config.toml')]);
    linkSync(outside, join(state, 'projects', 'p', 'alias.txt'));

    reclaimTree(root, state);
    expect(lstatSync(join(state, 'projects', 'p', 'session.jsonl')).isFile()).toBe(true);
    expect(lstatSync(join(state, 'settings.json')).isFile()).toBe(true);
    for (const gone of ['mcp.json', 'config.toml', 'projects/up', 'projects/p/alias.txt']) expect(lstatSync(join(state, gone), { throwIfNoEntry: false })).toBeUndefined();
    expect(readFileSync(outside, 'utf8')).toBe('server file\n');
  });

  it('makes the directory when missing, and refuses one that is a link', () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-runs-state-'));
    reclaimTree(root, join(root, 'fresh'));
    expect(lstatSync(join(root, 'fresh')).mode & 0o777).toBe(0o700);
    symlinkSync(tmpdir(), join(root, 'linked'));
    expect(() => reclaimTree(root, join(root, 'linked'))).toThrow(/not a directory/);
  });

  it('goes into a directory through its handle: one swapped for a link after it was seen is refused, and nothing beyond it is touched', () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-runs-state-'));
    const outside = join(root, 'outside');
    mkdirSync(outside);
    symlinkSync('/etc/passwd', join(outside, 'keep-me'));
    const state = join(root, 'state');
    mkdirSync(join(state, 'sub'), { recursive: true });
    const visited: string[] = [];
    const walk = () =>
      walkAgentTree(root, state, (dir, name) => {
        visited.push(name);
        // Another process of the agent's user, between the look at `sub` and the walk into it.
        if (name === 'sub') {
          renameSync(join(state, 'sub'), join(state, 'sub.old'));
          symlinkSync(outside, join(state, 'sub'));
        }
        if (name === 'keep-me') dir.remove(name);
        return true;
      });
    expect(walk).toThrow(/sub is a symbolic link or not a directory/);
    expect(visited).toEqual(['sub']);
    expect(lstatSync(join(outside, 'keep-me')).isSymbolicLink()).toBe(true);
  });

  it.runIf(isRoot)('hands the whole tree to the agent user, a link changed itself and its target untouched', () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-runs-state-'));
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'x');
    const state = join(root, 'state');
    mkdirSync(join(state, 'sub'), { recursive: true });
    writeFileSync(join(state, 'sub', 'mcp.json'), '{}', { mode: 0o600 });
    symlinkSync(outside, join(state, 'link'));
    const owner = { name: 'nobody', uid: 65534, gid: 65534 };
    giveTree(root, state, owner);
    for (const path of ['', 'sub', 'sub/mcp.json', 'link']) expect(lstatSync(join(state, path)).uid).toBe(65534);
    expect(lstatSync(join(state, 'sub', 'mcp.json')).mode & 0o777).toBe(0o600);
    expect(lstatSync(outside).uid).toBe(0);
  });
});

describe("a harness CLI's install, as the sandbox shows it", () => {
  it('is the outermost node_modules its real path lies in, else the executable alone, and nothing for a system one', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-runs-install-')));
    const pkg = join(root, 'node_modules', '@scope', 'cli', 'node_modules', 'dep');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'run.js'), '');
    mkdirSync(join(root, 'node_modules', '.bin'));
    symlinkSync(join(pkg, 'run.js'), join(root, 'node_modules', '.bin', 'cli'));
    expect(installRoot(join(root, 'node_modules', '.bin', 'cli'))).toEqual({ command: join(pkg, 'run.js'), readOnly: [join(root, 'node_modules')] });
    writeFileSync(join(root, 'claude'), '');
    expect(installRoot(join(root, 'claude'))).toEqual({ command: join(root, 'claude'), readOnly: [join(root, 'claude')] });
    expect(installRoot('/bin/sh').readOnly).toEqual([]);
  });
});

describe("a harness's model endpoint under the network policy", () => {
  it('is the host of the *_BASE_URL variables it gets, else the driver\'s, added to none or an allow-list only', () => {
    expect(modelHosts(claudeDriver, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:4100/v1', PATH: '/usr/bin' })).toEqual({ hosts: ['127.0.0.1:4100'], configured: true });
    expect(modelHosts(claudeDriver, { ANTHROPIC_BASE_URL: 'https://gateway.example.com' })).toEqual({ hosts: ['gateway.example.com:443'], configured: true });
    expect(modelHosts(claudeDriver, {})).toEqual({ hosts: ['api.anthropic.com:443'], configured: false });
    expect(allowAlso({ kind: 'none' }, ['127.0.0.1:4100'])).toEqual({ kind: 'allow', hosts: ['127.0.0.1:4100'] });
    expect(allowAlso({ kind: 'allow', hosts: ['registry.npmjs.org'] }, ['api.anthropic.com:443'])).toEqual({ kind: 'allow', hosts: ['registry.npmjs.org', 'api.anthropic.com:443'] });
    expect(allowAlso({ kind: 'full' }, ['api.anthropic.com:443'])).toEqual({ kind: 'full' });
    expect(allowAlso({ kind: 'none' }, [])).toEqual({ kind: 'none' });
    // The operator's endpoint (a `*_BASE_URL`) is also marked as one, which the proxy reaches even on loopback.
    expect(allowAlso({ kind: 'allow', hosts: ['registry.npmjs.org'] }, ['localhost:4100'], { endpoints: true })).toEqual({
      kind: 'allow',
      hosts: ['registry.npmjs.org', 'localhost:4100'],
      endpoints: ['localhost:4100'],
    });
    expect(allowAlso({ kind: 'full' }, ['localhost:4100'], { endpoints: true })).toEqual({ kind: 'full' });
  });
});

describe('a sandboxed agent whose driver keeps its state under HOME', () => {
  it('gets that directory as HOME (writable), and the private /tmp otherwise', async () => {
    const sandbox = chooseSandbox({ mode: 'on', network: { kind: 'none' } });
    const root = mkdtempSync(join(tmpdir(), 'agent-runs-home-'));
    const state = join(root, 'state');
    mkdirSync(state);
    if (sandbox.user) chownSync(state, sandbox.user.uid, sandbox.user.gid);
    const homeOf = (home: string | undefined) =>
      new Promise<string>((resolve) => {
        const child = spawnAgent({ command: '/bin/sh', args: ['-c', 'echo "$HOME" && echo kept > "$HOME/written"'], cwd: state, env: { PATH: '/usr/bin:/bin' }, sandbox, writable: [state], home });
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
        child.stdin.end();
        child.once('close', () => resolve(out.trim()));
      });
    expect(await homeOf(state)).toBe(state);
    expect(readFileSync(join(state, 'written'), 'utf8')).toBe('kept\n');
    expect(await homeOf(undefined)).toBe('/tmp');
  });
});
