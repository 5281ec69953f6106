import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitEnv, GIT_TIMEOUT_MS, MAX_GIT_OUTPUT } from '../executors/changes-patch.js';

/** What is pushed: the run's patch on a branch of its own, made from the remote's base. */
export interface RunBranch {
  /** The repository's remote (what `git clone` is given). */
  url: string;
  /** The branch the work starts from; absent: the remote's default branch. */
  base?: string | undefined;
  /** `agent-runs/<run id>`. */
  branch: string;
  /** The run's changes to this repository, as `git diff` printed them. */
  patch: string;
  message: string;
  author: { name: string; email: string };
  /** The GitHub token; it goes to git in its environment only, never in argv, a URL or a file. */
  token: string;
}

export type PushResult = { ok: true; base: string; /** The branch was there already: this added a commit to it. */ continued: boolean } | { ok: false; step: 'clone' | 'apply' | 'commit' | 'push'; detail: string };

export const DEFAULT_AUTHOR = { name: 'agent-runs', email: 'agent-runs@users.noreply.github.com' };

/**
 * `agent-runs/` and the whole run id: a name git takes, never an option. Not a prefix of it:
 * run ids begin with their time, so runs created in the same minute share their first characters.
 */
export function runBranchName(runId: string): string {
  return `agent-runs/${runId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 64) || 'run'}`;
}

/**
 * Commits the run's patch on its branch and pushes it, outside the agent's sandbox and in a
 * clone the server makes itself: the agent's checkout (its hooks, its config) is never run
 * with the token. The token reaches git as an `http.extraheader` set through
 * `GIT_CONFIG_COUNT`, so it is in no argv, URL or file; hooks are off.
 */
export async function pushRunBranch(input: RunBranch): Promise<PushResult> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-pr-'));
  try {
    const basic = Buffer.from(`x-access-token:${input.token}`).toString('base64');
    const env = {
      ...gitEnv(),
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'http.extraheader',
      GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
      GIT_CONFIG_KEY_1: 'core.hooksPath',
      GIT_CONFIG_VALUE_1: '/dev/null',
      GIT_AUTHOR_NAME: input.author.name,
      GIT_AUTHOR_EMAIL: input.author.email,
      GIT_COMMITTER_NAME: input.author.name,
      GIT_COMMITTER_EMAIL: input.author.email,
    };
    const git = async (args: string[], stdin?: string) => {
      const r = await runGit(dir, args, env, stdin);
      // git's own words, with the token cut out should a remote ever echo it.
      const detail = r.stderr.split(input.token).join('***').split(basic).join('***').trim().slice(-500);
      return { ok: r.status === 0, out: r.stdout, detail };
    };
    const clone = await git(['clone', '--quiet', '--no-tags', ...(input.base ? ['--branch', input.base] : []), '--', input.url, 'repo']);
    if (!clone.ok) return { ok: false, step: 'clone', detail: clone.detail };
    const inRepo = (args: string[], stdin?: string) => git(['-C', 'repo', ...args], stdin);
    const base = input.base ?? (await inRepo(['rev-parse', '--abbrev-ref', 'HEAD'])).out.trim();
    // A follow-up's changes go on the run's branch where an earlier execution pushed it: its
    // working directory was made from the base and the run's earlier patches, so they apply there.
    const pushed = (await inRepo(['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${input.branch}`])).ok;
    const checkout = await inRepo(['checkout', '--quiet', '-b', input.branch, ...(pushed ? [`refs/remotes/origin/${input.branch}`] : [])]);
    if (!checkout.ok) return { ok: false, step: 'commit', detail: checkout.detail };
    const apply = await inRepo(['apply', '--index', '--binary', '-'], input.patch);
    if (!apply.ok) return { ok: false, step: 'apply', detail: apply.detail };
    // The message on stdin: a title starting with "-" stays a message.
    const commit = await inRepo(['commit', '--quiet', '--no-verify', '-F', '-'], input.message);
    if (!commit.ok) return { ok: false, step: 'commit', detail: commit.detail };
    const push = await inRepo(['push', '--quiet', '--no-verify', 'origin', `refs/heads/${input.branch}:refs/heads/${input.branch}`]);
    if (!push.ok) return { ok: false, step: 'push', detail: push.detail };
    return { ok: true, base, continued: pushed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** git run to its end without blocking the server: its status, stdout and stderr (each cut at MAX_GIT_OUTPUT). */
function runGit(cwd: string, args: string[], env: Record<string, string>, stdin?: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('git', args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], timeout: GIT_TIMEOUT_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout = (stdout + c).slice(0, MAX_GIT_OUTPUT)));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-MAX_GIT_OUTPUT)));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin ?? '');
    child.on('error', (error) => resolve({ status: null, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
