import { statfs } from 'node:fs/promises';
import { UnavailableError } from '../domain/domain-errors.js';

/** A disk with less free than this counts as full: the store's next pages and a run's output no longer fit. */
export const FULL_DISK_BYTES = 1024 * 1024;
/** What a full disk's 503 asks a caller to wait: space comes back when someone frees it, not in seconds. */
const FULL_DISK_RETRY_AFTER_SECONDS = 30;

/**
 * Throws an UnavailableError naming the first of `dirs` whose disk is full (the data
 * directory, the runs' working directories): the store still answers reads there while every
 * write fails. A directory not made yet is skipped.
 */
export async function checkDiskSpace(dirs: readonly string[]): Promise<void> {
  for (const dir of new Set(dirs)) {
    let free: number;
    try {
      const stats = await statfs(dir);
      free = stats.bavail * stats.bsize;
    } catch {
      continue;
    }
    if (free < FULL_DISK_BYTES) {
      throw new UnavailableError(
        `The disk holding ${dir} is full (${free} bytes free, under ${FULL_DISK_BYTES}); runs' state and output cannot be written until space is freed there.`,
        FULL_DISK_RETRY_AFTER_SECONDS,
      );
    }
  }
}
