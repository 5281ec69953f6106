import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses); undefined when it is gone. */
export function statFields(pid: number): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** Whether /proc describes processes here (Linux); elsewhere the callers fall back to signals. */
export const hasProcFs = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/**
 * When the process started, in clock ticks since boot (/proc/<pid>/stat field 22), as text;
 * with the pid it names one process even after the pid is reused. Undefined without /proc.
 */
export function processStartTime(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

/**
 * Processes of group `pgid` that still run (zombies left unreaped by the system's init are
 * not counted: they hold nothing and can do nothing). Undefined without /proc.
 */
export function groupMembers(pgid: number): number[] | undefined {
  if (!hasProcFs) return undefined;
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(Number(name));
    // fields[0] is the state, fields[2] the process group.
    if (fields && fields[2] === String(pgid) && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(name));
  }
  return members;
}
