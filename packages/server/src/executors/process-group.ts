import { setTimeout as sleep } from 'node:timers/promises';
import { groupMembers, hasProcFs, processStartTime } from '../domain/process-identity.js';
import type { ProcessGroupRecord } from './run-executor.js';

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

/**
 * Kills the group an earlier server recorded for a run, if it is still that group: a live
 * leader must have the recorded start time (else its pid was reused); a group whose leader
 * is gone cannot have been reused, since a group id stays taken while any member lives.
 * Without /proc the identity cannot be checked and nothing is killed. True when signalled.
 */
export function killRecordedGroup({ pgid, startTime }: ProcessGroupRecord): boolean {
  if (!hasProcFs || startTime === null || !Number.isInteger(pgid) || pgid <= 1) return false;
  const leaderStart = processStartTime(pgid);
  if (leaderStart !== undefined && leaderStart !== startTime) return false;
  if (!groupAlive(pgid)) return false;
  return signalGroup(pgid, 'SIGKILL');
}
