import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitRepo } from './git-repo.js';

/** git in `cwd` with a fixed identity; its stdout. */
export const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });

/**
 * A bare remote at `…/acme/web.git` (the server reads acme/web from its path), made from a
 * repository holding `files` on `main`.
 */
export function bareRemote(files: Record<string, string> = { 'README.md': 'hello\n' }): string {
  const bare = join(mkdtempSync(join(tmpdir(), 'agent-runs-remote-')), 'acme', 'web.git');
  git(tmpdir(), 'clone', '-q', '--bare', gitRepo(files), bare);
  return bare;
}

/** The run branches a remote holds, one per line. */
export const runBranches = (bare: string): string => git(bare, 'branch', '--list', 'agent-runs/*').trim();
