import type { ChildProcess } from 'node:child_process';

/** Signals the child's whole process group (it was spawned detached, so it leads one). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** SIGTERM to the group, then SIGKILL after `graceMs` if the leader is still there. */
export function endGroup(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  return exited.then(() => {
    clearTimeout(timer);
    // Grandchildren that outlived the leader go too.
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Nothing left.
      }
    }
  });
}
