import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '@actions/core';
import { runArtifacts, safeFileName, summarizeArtifact, type AgentRunsClient, type RunItem } from '@agent-runs/core';

/** How long the patch's download may go without progress. */
const DOWNLOAD_TIMEOUT_MS = 60_000;

/** The uid of the run's newest `changes.patch` (the last execution's), if the harness left one. */
export function changesPatchUid(run: RunItem): string | undefined {
  return runArtifacts(run)
    .map(summarizeArtifact)
    .filter((a) => a.type === 'FILE' && a.name === 'changes.patch' && a.uid)
    .at(-1)?.uid;
}

/**
 * Downloads the run's `changes.patch` into the runner's temporary directory and sets the
 * `changes-patch` output to its path, so a later step can `git apply` it. A run without one
 * leaves the output empty; a download that fails is a warning, never a failed step.
 */
export async function handOverChangesPatch(client: AgentRunsClient, run: RunItem, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const uid = changesPatchUid(run);
  if (!uid) return undefined;
  const dir = join(env.RUNNER_TEMP || tmpdir(), 'agent-runs', safeFileName(run.run_id, 'run'));
  const path = join(dir, 'changes.patch');
  try {
    mkdirSync(dir, { recursive: true });
    await client.artifacts.download(uid, { to: path, timeout: DOWNLOAD_TIMEOUT_MS });
  } catch (error) {
    core.warning(`The run's changes.patch could not be downloaded: ${(error as Error).message}`);
    return undefined;
  }
  core.setOutput('changes-patch', path);
  return path;
}
