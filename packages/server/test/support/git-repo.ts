import { execFileSync } from 'node:child_process';
import { tempTree } from './server-config.js';

/** A local git repository holding `files`, committed; returns its path. */
export function gitRepo(files: Record<string, string>): string {
  const dir = tempTree(files, 'agent-runs-repo-');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return dir;
}
