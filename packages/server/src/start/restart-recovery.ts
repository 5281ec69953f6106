import type { RunStatusMessage } from '@agent-runs/core/contract';
import { killRecordedGroup } from '../executors/process-group.js';
import { ProcessTree } from '../executors/process-tree.js';
import type { Storage } from '../store/storage.js';
import { isWorkerOwner } from '../workers/worker-owner.js';

const RESTARTED: RunStatusMessage = {
  message: 'The server restarted while this run was in progress, so its outcome is unknown; start a new run.',
  error_code: 'internal_error',
  retryable: true,
};
const IN_FLIGHT = ['INPROGRESS', 'PENDING', 'CLAIMED'];

/**
 * For a server alone on its database: whatever it ran itself was the last server's, so its
 * agents are killed (a bare agent's recorded tree, what left its group with setsid included,
 * then its process group) and its runs marked FAILED. A run a worker was running goes on
 * there: it is leased again to that worker for one lease (on SQLite leases live in memory,
 * so the restart forgot them), which its next poll renews; a worker that does not come back
 * lets it run out, and the run fails as any lost worker's does. (On a shared database those
 * runs may be other servers' work; their leases tell instead.)
 */
export async function recoverAfterRestart(storage: Pick<Storage, 'runs' | 'conversations'>, workRoot: string, now: string, leaseMs: number, log: (line: string) => void): Promise<void> {
  const { runs: store } = storage;
  const leftovers = await store.processGroups(IN_FLIGHT);
  // The tree first: killing the group first would orphan its setsid children before they are found.
  const killed = leftovers.filter((group) => ProcessTree.endRecorded(workRoot, group.id, group) + Number(killRecordedGroup(group)) > 0).length;
  if (killed > 0) log(`Killed ${killed} agent process group(s) left running by the last server.`);
  const onWorkers = await workerRuns(storage);
  const failed = await store.failAll(IN_FLIGHT, RESTARTED, now, [...onWorkers.keys()]);
  if (failed > 0) log(`Marked ${failed} run(s) that were in progress at the last stop as FAILED.`);
  for (const [runId, owner] of onWorkers) await store.leases.adopt(owner, [runId], leaseMs);
  if (onWorkers.size > 0) log(`Left ${onWorkers.size} run(s) in progress on workers to them, for one lease (${leaseMs} ms) to reconnect.`);
}

/** The INPROGRESS runs a worker was running, with its lease owner (who started their last execution). */
async function workerRuns({ runs, conversations }: Pick<Storage, 'runs' | 'conversations'>): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const runId of await runs.inProgressOnWorkers()) {
    const last = await conversations.lastStart(runId);
    if (last && isWorkerOwner(last.server)) found.set(runId, last.server);
  }
  return found;
}
