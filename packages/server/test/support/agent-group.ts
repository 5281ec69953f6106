import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { groupMembers } from '../../src/domain/process-identity.js';

/**
 * An agent whose shell exits on SIGTERM while a child it started ignores SIGTERM and keeps
 * the output pipes open: only SIGKILL to the whole group ends it. The child writes the
 * process group id to `pgid` in its work dir once both traps are set, so a test that signals
 * the group after reading it never finds a shell that would still die of the default action.
 */
export const STUBBORN_AGENT = `read -r stat < /proc/$$/stat; set -- $stat
trap 'exit 0' TERM
sh -c 'trap "" TERM; echo '"$5"' > pgid; while :; do sleep 0.1; done' &
echo started
wait
`;

export function agentScript(text = STUBBORN_AGENT): { dir: string; command: string } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-faults-'));
  writeFileSync(join(dir, 'agent.sh'), text);
  chmodSync(dir, 0o755); // Readable by the agent user a root server runs agents as.
  return { dir, command: `sh ${join(dir, 'agent.sh')}` };
}

/** Waits for the agent of `runId` to write its group id, and for the group to have its child. */
export async function agentGroup(workRoot: string, runId: string): Promise<number> {
  const file = join(workRoot, runId, 'pgid');
  await expect.poll(() => existsSync(file) && readFileSync(file, 'utf8').trim() !== '', { timeout: 10_000 }).toBe(true);
  const pgid = Number(readFileSync(file, 'utf8').trim());
  started.add(pgid);
  await expect.poll(() => groupMembers(pgid)!.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  return pgid;
}

const started = new Set<number>();

/** After each test: whatever a failing test left of its agents is killed, not left to spin. */
export function killAgentGroups(): void {
  for (const pgid of started) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
  started.clear();
}

export const livingMembers = (pgid: number) => groupMembers(pgid) ?? [];

/** Processes whose command line holds `marker` (an agent's helper carries one, so a test finds it among the machine's processes). */
export function withMarker(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
