/**
 * Whether a process with this pid exists: signal 0 checks without sending. EPERM means it
 * exists but is another user's (an agent run as `nobody`, a vitest of another user), so it
 * counts as alive; only ESRCH (no such process) is gone.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
