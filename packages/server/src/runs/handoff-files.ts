import { attachmentsDir } from '../executors/agent-protocol.js';
import { inAgentDir } from '../executors/agent-tree.js';

const MAX_LISTED = 100;

/** The regular files of a run's attachments directory, as the last execution left it. */
export function handoffFiles(workRoot: string, runId: string): string[] {
  // No link is followed, to the directory or in it: only what the agent wrote there is handed off.
  return inAgentDir(
    workRoot,
    attachmentsDir(workRoot, runId),
    (dir) => {
      try {
        return dir.list().filter((name) => dir.stat(name)?.isFile()).slice(0, MAX_LISTED);
      } catch {
        return [];
      }
    },
    () => [],
  );
}
