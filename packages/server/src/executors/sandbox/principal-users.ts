import { createHash } from 'node:crypto';
import { ServerConfigError } from '../../domain/server-config-error.js';
import type { RunRecord } from '../../store/runs/run-record.js';
import type { AgentSandbox } from './agent-sandbox.js';
import type { AgentUser } from './agent-user.js';

/** The widest range taken: uids past it are left to the system's own ranges. */
const MAX_UID = 4_294_967_294;

/**
 * `first-last` (e.g. `61000-61999`) → each principal's agent user, a uid (and gid) of that
 * range picked by a hash of the principal: the same on every server and across restarts, so
 * a follow-up's agent owns what the run's earlier ones left. Needs a root server.
 */
export function principalUsers(spec: string, serverUid: number | undefined = process.getuid?.()): (principal: string) => AgentUser {
  const match = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(spec);
  const first = Number(match?.[1]);
  const last = Number(match?.[2]);
  if (!match || first < 1000 || last < first || last > MAX_UID) {
    throw new ServerConfigError(`agentUidRange (--agent-uid-range) must be "first-last" with 1000 <= first <= last, got "${spec}".`);
  }
  if (serverUid !== 0) throw new ServerConfigError('agentUidRange (--agent-uid-range) needs the server to run as root (only root can start processes as another user).');
  const count = last - first + 1;
  return (principal) => {
    const hash = createHash('sha256').update(principal).digest().readUIntBE(0, 6);
    const uid = first + (hash % count);
    return { name: `uid ${uid}`, uid, gid: uid };
  };
}

/** Refuses, at start, principals whose agents would share a user (their runs would not be kept apart). */
export function checkPrincipalUsers(sandbox: AgentSandbox, principals: readonly string[]): void {
  if (!sandbox.userFor) return;
  const byUid = new Map<number, string>();
  for (const principal of new Set(principals)) {
    const { uid } = sandbox.userFor(principal);
    const other = byUid.get(uid);
    if (other !== undefined) throw new ServerConfigError(`agentUidRange (--agent-uid-range) gives principals "${other}" and "${principal}" the same uid ${uid}; widen or move the range.`);
    byUid.set(uid, principal);
  }
}

/** How the run's agent starts: as its principal's user where the server gives each one its own. */
export function sandboxForRun(sandbox: AgentSandbox, run: Pick<RunRecord, 'creator'>): AgentSandbox {
  if (!sandbox.userFor) return sandbox;
  return { ...sandbox, user: sandbox.userFor(run.creator.uid ?? '') };
}
