import { rmSync } from 'node:fs';

/** Temporary directories the running test file made, removed when it ends (file-state-setup.ts). */
const made: string[] = [];

/** Marks `dir` for removal once the test file that made it has ended; returns it. */
export function removedAfterFile(dir: string): string {
  made.push(dir);
  return dir;
}

/**
 * Removes what the ended file made. Its own `afterAll` hooks ran first (they stop the servers and
 * agents that wrote there); what cannot be removed (a file of another user the sandbox left, a
 * process not yet gone) is left to the system's temporary-file cleaning, not failed over.
 */
export function removeFileTempDirs(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // Left for the system's cleaning.
    }
  }
}
