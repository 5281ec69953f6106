import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { oneLine } from '../domain/one-line.js';
import { GIT_TIMEOUT_MS, gitEnv } from './changes-patch.js';
import type { ExecutionContext, WorkspaceRestore } from './run-executor.js';
import { runWorkDir } from './run-work-dir.js';

/** Longest part of git's complaint about a patch that did not apply kept in the note. */
const MAX_COMPLAINT_CHARS = 300;

/**
 * What a follow-up's execution restores, when it asked to (it runs on a worker that did not
 * run the run's last execution) and the run's working directory is not here: the directory
 * the earlier execution left is on another machine, so it is made again from the
 * environment's checkout and the run's `changes.patch` files.
 */
export function workspaceToRestore(workRoot: string, { run, input, restore }: ExecutionContext): WorkspaceRestore | undefined {
  if (!restore || input.number <= 1) return undefined;
  return existsSync(runWorkDir(workRoot, run.id)) ? undefined : restore;
}

/** How the patches went: applied, or the first that did not (those after it are not tried: they build on it). */
export interface PatchesApplied {
  applied: number;
  failed?: { index: number; complaint: string };
}

/**
 * Applies the patches to `workDir`, in order, with `git apply` (as this process's user; a
 * patch's paths stay beneath the directory). The directories above it are not searched for
 * a repository: a work root inside one must not take the patch.
 */
export function applyPatches(workDir: string, patches: readonly Buffer[]): PatchesApplied {
  for (const [index, patch] of patches.entries()) {
    const result = spawnSync('git', ['apply', '--whitespace=nowarn', '-'], {
      cwd: workDir,
      input: patch,
      env: { ...gitEnv(), GIT_CEILING_DIRECTORIES: dirname(workDir) },
      encoding: 'utf8',
      timeout: GIT_TIMEOUT_MS,
    });
    if (result.status !== 0) {
      // What git repeats of the patch is the agent's text: one line, nothing a terminal acts on.
      const said = oneLine(result.stderr || result.error?.message || `git apply ended ${result.status ?? result.signal}`, MAX_COMPLAINT_CHARS);
      return { applied: index, failed: { index, complaint: said } };
    }
  }
  return { applied: patches.length };
}

/** The line the run's output shows for a restored working directory: where, from what, and what did not come back. */
export function restoredNote(restore: WorkspaceRestore, parts: { checkout?: string; patches: PatchesApplied; harnessSessionId?: string | undefined }): string {
  const what: string[] = [];
  if (parts.checkout) what.push(`the checkout of environment ${parts.checkout}`);
  const { patches } = parts;
  const total = restore.patches.length;
  if (total === 0) what.push('no changes.patch (the run kept none)');
  else if (!patches.failed) what.push(`the run's changes.patch applied (${total} of ${total})`);
  else {
    what.push(
      `the run's changes.patch applied ${patches.applied} of ${total}: patch ${patches.failed.index + 1} did not apply (${patches.failed.complaint}), so the execution runs without it and those after it`,
    );
  }
  if (parts.harnessSessionId) what.push(`the harness session ${parts.harnessSessionId}, handed to the harness to resume`);
  return `[agent-runs] The working directory was restored on worker ${restore.here}: the run's last execution ran on ${restore.ranOn}, and its directory is not here. Restored: ${what.join('; ')}.\n`;
}
