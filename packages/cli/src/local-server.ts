import type { RunningServer, ServerOptions } from '@agent-runs/server';

export type { RunningServer, ServerOptions };

/**
 * The local server package, loaded only by the commands that start one, so that `run`
 * and `list` do not pay for SQLite.
 */
export function loadServer(): Promise<typeof import('@agent-runs/server')> {
  return import('@agent-runs/server');
}
