import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewArtifact } from '../../store/artifact-store.js';

/** Largest patch kept as the execution's `changes.patch`; a larger one is cut there with a note. */
export const MAX_PATCH_BYTES = 5 * 1024 * 1024;
const GIT_TIMEOUT_MS = 30_000;

/** One repository of the working directory and the tree it held when the execution began. */
interface RepoStart {
  /** Directory inside the working directory ('' for the working directory itself). */
  dir: string;
  tree: string;
}

function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string | undefined {
  const result = spawnSync('git', args, {
    cwd,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', ...env },
    encoding: 'buffer',
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: MAX_PATCH_BYTES * 4,
  });
  return result.status === 0 ? result.stdout.toString('utf8') : undefined;
}

/** The whole working state of a repository (committed, changed, untracked) as a tree, without touching its index. */
function snapshotTree(repo: string): string | undefined {
  const scratch = mkdtempSync(join(tmpdir(), 'agent-runs-index-'));
  try {
    const env = { GIT_INDEX_FILE: join(scratch, 'index') };
    if (git(repo, ['add', '-A', '.'], env) === undefined) return undefined;
    return git(repo, ['write-tree'], env)?.trim() || undefined;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function repositories(workDir: string): string[] {
  if (existsSync(join(workDir, '.git'))) return [''];
  try {
    return readdirSync(workDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(workDir, e.name, '.git')))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** What the repositories of the working directory hold as an execution begins. */
export function recordChangesStart(workDir: string): RepoStart[] {
  return repositories(workDir).flatMap((dir) => {
    const tree = snapshotTree(join(workDir, dir));
    return tree ? [{ dir, tree }] : [];
  });
}

/**
 * The agent's changes since the execution began (committed or not, new files included) as
 * one `changes.patch` FILE artifact, with each repository's branch; none when nothing changed.
 */
export function changesPatch(workDir: string, starts: readonly RepoStart[]): { artifact?: NewArtifact; note?: string } {
  const parts: string[] = [];
  const branches: Record<string, string> = {};
  for (const { dir, tree } of starts) {
    const repo = join(workDir, dir);
    const end = snapshotTree(repo);
    if (!end || end === tree) continue;
    const prefix = dir ? `${dir}/` : '';
    const diff = git(repo, ['diff', '--binary', '--no-color', '--no-ext-diff', `--src-prefix=a/${prefix}`, `--dst-prefix=b/${prefix}`, tree, end]);
    if (diff) parts.push(diff);
    const branch = git(repo, ['rev-parse', '--abbrev-ref', 'HEAD'])?.trim();
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
