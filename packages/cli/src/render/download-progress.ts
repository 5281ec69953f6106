import type { DownloadProgress } from '@agent-runs/core';
import { isInteractive, type Io } from '../io.js';
import { formatBytes } from './artifact-table.js';

/** Files below this size finish too fast for a bar to help. */
const BAR_MIN_BYTES = 1024 * 1024;
const BAR_WIDTH = 24;
/** Redraws at most this often. */
const REDRAW_MS = 100;

/** A one-line progress bar on an interactive stderr for large downloads; nothing otherwise. */
export function downloadProgress(io: Io, name: string): { onProgress(p: DownloadProgress): void; done(): void } {
  if (!isInteractive(io.stderr, io.env)) return { onProgress() {}, done() {} };
  let drawn = false;
  let last = 0;
  return {
    onProgress({ received, total }) {
      const now = Date.now();
      if ((total ?? received) < BAR_MIN_BYTES || (now - last < REDRAW_MS && received !== total)) return;
      last = now;
      drawn = true;
      const share = total ? Math.min(1, received / total) : 0;
      const filled = Math.round(share * BAR_WIDTH);
      const bar = total ? `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}% ` : '';
      io.stderr.write(`\r\x1b[2K${name} ${bar}${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ''}`);
    },
    done() {
      if (drawn) io.stderr.write('\r\x1b[2K');
    },
  };
}
