import { setTimeout as sleep } from 'node:timers/promises';
import { groupMembers } from './process-identity.js';

const POLL_MS = 50;
/** After SIGKILL the kernel ends a group at once; this only bounds the wait for it to show. */
const AFTER_KILL_MS = 1000;

/** Sends `signal` to every process of group `pgid`; false when none is left to receive it. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether any process of the group still runs. */
export function groupAlive(pgid: number): boolean {
  const members = groupMembers(pgid);
  if (members) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= until) return false;
    await sleep(POLL_MS);
  }
  return true;
}

/**
 * SIGTERM to the whole group, then SIGKILL after `graceMs` to whatever of it is left,
 * whether or not the leader is still there (a shell that exits on SIGTERM leaves its
 * children behind). Resolves once the group is gone, within `graceMs` + about a second.
 */
export async function endGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  if (await waitGone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitGone(pgid, AFTER_KILL_MS);
}
