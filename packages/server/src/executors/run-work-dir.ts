import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { giveDir, serverDir } from './agent-files.js';
import type { AgentSandbox } from './sandbox/agent-sandbox.js';

/** The working directory of one run: `<workRoot>/<run id>`. */
export function runWorkDir(workRoot: string, runId: string): string {
  return join(workRoot, runId);
}

/**
 * Makes the run's working directory (kept across executions) and gives it to the agent
 * user; the work root is made traversable (not listable) when that user runs bare.
 */
export function prepareWorkDir(workRoot: string, runId: string, sandbox: AgentSandbox): string {
  serverDir(workRoot);
  if (sandbox.user && !sandbox.bwrap) chmodSync(workRoot, 0o711);
  const workDir = runWorkDir(workRoot, runId);
  serverDir(workDir);
  giveDir(workDir, sandbox.user);
  return workDir;
}
