import type { RunStatusMessage } from '@agent-runs/core/contract';
import { killRecordedGroup } from '../executors/process-group.js';
import { ProcessTree } from '../executors/process-tree.js';
import type { RunStore } from '../store/runs/run-store.js';

const RESTARTED: RunStatusMessage = {
  message: 'The server restarted while this run was in progress, so its outcome is unknown; start a new run.',
  error_code: 'internal_error',
  retryable: true,
};
const IN_FLIGHT = ['INPROGRESS', 'PENDING', 'CLAIMED'];

/**
 * For a server alone on its database: whatever was in flight belonged to the last server
 * here, so its agents are killed (a bare agent's recorded tree, what left its group with
 * setsid included, then its process group) and its runs marked FAILED. (On a shared
 * database those runs may be other servers' work; their leases tell instead.)
 */
export async function recoverAfterRestart(store: RunStore, workRoot: string, now: string, log: (line: string) => void): Promise<void> {
  const leftovers = await store.processGroups(IN_FLIGHT);
  // The tree first: killing the group first would orphan its setsid children before they are found.
  const killed = leftovers.filter((group) => ProcessTree.endRecorded(workRoot, group.id, group) + Number(killRecordedGroup(group)) > 0).length;
  if (killed > 0) log(`Killed ${killed} agent process group(s) left running by the last server.`);
  const failed = await store.failAll(IN_FLIGHT, RESTARTED, now);
  if (failed > 0) log(`Marked ${failed} run(s) that were in progress at the last stop as FAILED.`);
}
