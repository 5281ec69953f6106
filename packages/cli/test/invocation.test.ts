import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { invocationFrom } from '../src/invocation.js';

describe('invocationFrom', () => {
  it('names the bin link as agent-runs', () => {
    expect(invocationFrom('/usr/local/bin/agent-runs', '/home/me')).toBe('agent-runs');
  });

  it('names the bin link run by npx as npx agent-runs', () => {
    expect(invocationFrom('/repo/node_modules/.bin/agent-runs', '/repo', 'exec')).toBe('npx agent-runs');
  });

  it('names a launcher run by path with node and the path from the working directory', () => {
    expect(invocationFrom('/repo/packages/cli/bin/agent-runs.js', '/repo', 'exec')).toBe('node packages/cli/bin/agent-runs.js');
  });
});

describe('the bin links after npm ci', () => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const npx = (args: string[]) =>
    // npm_config_yes=false: a missing link fails instead of fetching a package of that name.
    spawnSync('npx', args, { cwd: root, encoding: 'utf8', timeout: 30_000, env: { ...process.env, NO_COLOR: '1', npm_config_yes: 'false' } });

  it('runs npx agent-runs --help, whose hints say npx agent-runs', () => {
    const result = npx(['agent-runs', '--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: npx agent-runs <command>');
  });

  it.each([['agent-runs-mcp', 'agent-runs-mcp '], ['agent-runs-server', 'Usage: agent-runs-server']])('runs npx %s --help', (bin, expected) => {
    const result = npx([bin, '--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(expected);
  });
});
