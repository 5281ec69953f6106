import type { RunStatusMessage } from '@agent-runs/core/contract';
import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Storage } from '../store/storage.js';
import type { WiredApp } from './wire-app.js';

const STOPPED: RunStatusMessage = {
  message: 'The server was stopped while this run was in progress; start a new run.',
  error_code: 'internal_error',
  retryable: true,
};

/**
 * The server's `close()`: stops taking work, stops the agents, ends the streams, closes the
 * storage and unlocks the data directory. Calling it again waits for the same close.
 */
export function shutdownOf(server: Server, wired: WiredApp, storage: Storage, removeSkillCache: boolean, unlock: () => void): () => Promise<void> {
  const { scheduler, node, queue, events, skillCache, webhooks, workers } = wired;
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Waiting polls are answered (empty) now; the runs workers hold stay theirs.
      workers.close();
      await scheduler.stop();
      await node?.stop();
      // Answers in flight are given a moment, while the agents are stopped; then lingering
      // connections are cut. Shutdown takes the agents' kill grace and about a second more.
      const cut = setTimeout(() => server.closeAllConnections(), 1000);
      await queue.stop(STOPPED);
      // Streams get the runs' last events, then end, so they do not hold the close up.
      await events.closeAll();
      await webhooks.stop();
      await stopped;
      clearTimeout(cut);
      await storage.close();
      if (removeSkillCache) rmSync(skillCache, { recursive: true, force: true });
      unlock();
    })());
}
