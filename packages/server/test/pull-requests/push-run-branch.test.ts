import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pushRunBranch, runBranchName } from '../../src/pull-requests/push-run-branch.js';
import { gitRepo } from '../support/git-repo.js';

const TOKEN = 'ghp_secretTOKEN1234567890';
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });

/** A bare remote made from a repository with README.md, and a patch adding notes.txt. */
function remoteAndPatch(): { remote: string; patch: string } {
  const source = gitRepo({ 'README.md': 'hello\n' });
  const remote = join(mkdtempSync(join(tmpdir(), 'agent-runs-remote-')), 'web.git');
  git(tmpdir(), 'clone', '-q', '--bare', source, remote);
  writeFileSync(join(source, 'notes.txt'), 'written by the agent\n');
  writeFileSync(join(source, 'README.md'), 'hello, changed\n');
  git(source, 'add', '-A');
  return { remote, patch: git(source, 'diff', '--cached', '--binary') };
}

describe('pushing a run\'s branch', () => {
  it('names the branch after the whole run id, never as an option', () => {
    // Two runs of one minute share their ids' first characters: the branch tells them apart.
    expect(runBranchName('019ad0c2-1111-7000-8000-000000000001')).toBe('agent-runs/019ad0c2-1111-7000-8000-000000000001');
    expect(runBranchName('--upload-pack=x y')).toBe('agent-runs/--upload-packxy');
  });

  it('pushes a branch holding exactly the run\'s changes, with a message that starts with "-"', async () => {
    const { remote, patch } = remoteAndPatch();
    const result = await pushRunBranch({ url: remote, branch: 'agent-runs/abcdef12', patch, message: '--amend everything\n\nDone.', author: { name: 'Bot', email: 'bot@example.com' }, token: TOKEN });
    expect(result).toEqual({ ok: true, base: 'main', continued: false });
    expect(git(remote, 'diff', '--name-only', 'main', 'agent-runs/abcdef12').trim().split('\n')).toEqual(['README.md', 'notes.txt']);
    expect(git(remote, 'show', 'agent-runs/abcdef12:notes.txt')).toBe('written by the agent\n');
    expect(git(remote, 'log', '-1', '--format=%an <%ae>|%cn|%s', 'agent-runs/abcdef12').trim()).toBe('Bot <bot@example.com>|Bot|--amend everything');
    expect(git(remote, 'rev-list', '--count', 'main..agent-runs/abcdef12').trim()).toBe('1');
  });

  it('adds a commit to the run\'s branch where it was pushed already (a follow-up\'s changes)', async () => {
    const { remote, patch } = remoteAndPatch();
    const author = { name: 'Bot', email: 'bot@example.com' };
    await pushRunBranch({ url: remote, branch: 'agent-runs/abcdef12', patch, message: 'first', author, token: TOKEN });
    // The follow-up's working directory held the first patch already: its own changes are on top of it.
    const next = gitRepo({ 'README.md': 'hello, changed\n', 'notes.txt': 'written by the agent\n' });
    writeFileSync(join(next, 'notes.txt'), 'written by the agent\nand the follow-up\n');
    git(next, 'add', '-A');
    const followup = git(next, 'diff', '--cached', '--binary');
    expect(await pushRunBranch({ url: remote, branch: 'agent-runs/abcdef12', patch: followup, message: 'second', author, token: TOKEN })).toEqual({ ok: true, base: 'main', continued: true });
    expect(git(remote, 'log', '--format=%s', 'main..agent-runs/abcdef12').trim().split('\n')).toEqual(['second', 'first']);
    expect(git(remote, 'show', 'agent-runs/abcdef12:notes.txt')).toBe('written by the agent\nand the follow-up\n');
  });

  it('says which step failed when the remote refuses the push, without the token', async () => {
    const { remote, patch } = remoteAndPatch();
    writeFileSync(join(remote, 'hooks', 'pre-receive'), '#!/bin/sh\necho "protected: pushes are refused" >&2\nexit 1\n');
    chmodSync(join(remote, 'hooks', 'pre-receive'), 0o755);
    const result = await pushRunBranch({ url: remote, branch: 'agent-runs/abcdef12', patch, message: 'x', author: { name: 'Bot', email: 'bot@example.com' }, token: TOKEN });
    expect(result).toMatchObject({ ok: false, step: 'push' });
    expect(JSON.stringify(result)).toMatch(/pushes are refused/);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(git(remote, 'branch', '--list', 'agent-runs/*').trim()).toBe('');
  });

  it('fails at the clone for a base branch the remote lacks', async () => {
    const { remote, patch } = remoteAndPatch();
    const result = await pushRunBranch({ url: remote, base: 'release', branch: 'agent-runs/abcdef12', patch, message: 'x', author: { name: 'Bot', email: 'bot@example.com' }, token: TOKEN });
    expect(result).toMatchObject({ ok: false, step: 'clone' });
    expect(JSON.stringify(result)).toMatch(/release/);
  });
});
