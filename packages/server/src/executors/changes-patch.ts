import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { NewArtifact } from '../store/artifacts/artifact-store.js';
import { inAgentDir, type AgentDir } from './agent-tree.js';
import { runAsAgent } from './agent-spawn.js';
import type { AgentSandbox } from './sandbox/agent-sandbox.js';

/** Largest patch kept as the execution's `changes.patch`; a larger one is cut there with a note. */
export const MAX_PATCH_BYTES = 5 * 1024 * 1024;
export const GIT_TIMEOUT_MS = 30_000;
/** Largest output of one git command read. */
export const MAX_GIT_OUTPUT = MAX_PATCH_BYTES * 4;

/** One repository of the working directory and the tree it held when the execution began. */
interface RepoStart {
  /** Directory inside the working directory ('' for the working directory itself). */
  dir: string;
  tree: string;
}

/** Runs `command args` in `cwd` to its end (as the agent would, when given by the executor); its stdout, or undefined when it failed. */
export type RunGit = (cwd: string, command: string, args: readonly string[], env: Record<string, string>) => string | undefined;

/** As the server's own user: for a server whose agents run as it too. */
export const runGitAsServer: RunGit = (cwd, command, args, env) => {
  const result = spawnSync(command, args, { cwd, env: { ...gitEnv(), ...env }, encoding: 'buffer', timeout: GIT_TIMEOUT_MS, maxBuffer: MAX_GIT_OUTPUT });
  return result.status === 0 ? result.stdout.toString('utf8') : undefined;
};

/** git over the agent's repositories, run as the agent is (sandboxed, as the agent user), never with the server's rights. */
export function gitAsAgent(sandbox: AgentSandbox, workDir: string): RunGit {
  if (!sandbox.bwrap && !sandbox.user) return runGitAsServer;
  return (cwd, command, args, env) => {
    const spec = { command, args, cwd, env: { ...gitEnv(), HOME: workDir, ...env }, sandbox, writable: [workDir], network: { kind: 'none' as const } };
    const result = runAsAgent(spec, { timeoutMs: GIT_TIMEOUT_MS, maxBuffer: MAX_GIT_OUTPUT });
    return result.status === 0 ? result.stdout.toString('utf8') : undefined;
  };
}

/** The variables git runs with: no system configuration, never a prompt. */
export function gitEnv(): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
}

/** Adds everything to a throwaway index (the repository's own is not touched) and prints its tree. */
const SNAPSHOT = 'd=$(mktemp -d) || exit 1; GIT_INDEX_FILE="$d/index" git add -A . && GIT_INDEX_FILE="$d/index" git write-tree; s=$?; rm -rf "$d"; exit $s';

/** The whole working state of a repository (committed, changed, untracked) as a tree, without touching its index. */
function snapshotTree(repo: string, run: RunGit): string | undefined {
  return run(repo, '/bin/sh', ['-c', SNAPSHOT], {})?.trim() || undefined;
}

/** The working directory when it holds `.git`, else its directories that do; read beneath `root`, no link followed. */
function repositories(root: string, workDir: string): string[] {
  const holdsGit = (dir: AgentDir) => dir.stat('.git') !== undefined;
  return inAgentDir(
    root,
    workDir,
    (work) => {
      if (holdsGit(work)) return [''];
      try {
        return work.list().filter((name) => {
          if (!work.stat(name)?.isDirectory()) return false;
          try {
            const sub = work.dir(name);
            try {
              return holdsGit(sub);
            } finally {
              sub.close();
            }
          } catch {
            return false;
          }
        });
      } catch {
        return [];
      }
    },
    () => [],
  );
}

/** What the repositories of the working directory (beneath the server's `root`) hold as an execution begins. */
export function recordChangesStart(root: string, workDir: string, run: RunGit = runGitAsServer): RepoStart[] {
  return repositories(root, workDir).flatMap((dir) => {
    const tree = snapshotTree(join(workDir, dir), run);
    return tree ? [{ dir, tree }] : [];
  });
}

/**
 * The agent's changes since the execution began (committed or not, new files included) as
 * one `changes.patch` FILE artifact, with each repository's branch; none when nothing changed.
 */
export function changesPatch(workDir: string, starts: readonly RepoStart[], run: RunGit = runGitAsServer): { artifact?: NewArtifact; note?: string } {
  const parts: string[] = [];
  const branches: Record<string, string> = {};
  for (const { dir, tree } of starts) {
    const repo = join(workDir, dir);
    const end = snapshotTree(repo, run);
    if (!end || end === tree) continue;
    const prefix = dir ? `${dir}/` : '';
    const diff = run(repo, 'git', ['diff', '--binary', '--no-color', '--no-ext-diff', `--src-prefix=a/${prefix}`, `--dst-prefix=b/${prefix}`, tree, end], {});
    if (diff) parts.push(diff);
    const branch = run(repo, 'git', ['rev-parse', '--abbrev-ref', 'HEAD'], {})?.trim();
    if (branch) branches[dir || '.'] = branch;
  }
  if (parts.length === 0) return {};
  let content = Buffer.from(parts.join(''));
  let note: string | undefined;
  if (content.length > MAX_PATCH_BYTES) {
    note = `changes.patch is ${content.length} bytes, over the limit of ${MAX_PATCH_BYTES}; it was cut there.`;
    content = content.subarray(0, MAX_PATCH_BYTES);
  }
  return {
    artifact: {
      type: 'FILE',
      data: { filename: 'changes.patch', filepath: 'changes.patch', mime_type: 'text/x-diff', size_bytes: content.length, description: `The agent's changes (branch ${Object.values(branches).join(', ')})`, branches },
      content,
    },
    ...(note ? { note } : {}),
  };
}

/**
 * Adds the execution's `changes.patch` to what its agent reported, unless the agent handed
 * back one of its own (a script that makes its patch itself): two would apply the same
 * changes twice when a follow-up's working directory is made again from them.
 */
export function addChangesPatch(artifacts: NewArtifact[], workDir: string, starts: readonly RepoStart[], run: RunGit, say: (note: string) => void): void {
  if (artifacts.some((a) => a.type === 'FILE' && a.data['filename'] === 'changes.patch')) return;
  const changes = changesPatch(workDir, starts, run);
  if (changes.note) say(changes.note);
  if (changes.artifact) artifacts.push(changes.artifact);
}
