import type { RunningServer, ServerOptions } from '@agent-runs/server';

export type { RunningServer, ServerOptions };

/**
 * The local server, loaded only by the commands that start one, so that `run` and
 * `list` do not pay for SQLite.
 */
export async function startLocalServer(options: ServerOptions): Promise<RunningServer> {
  const { startServer } = await import('@agent-runs/server');
  return startServer(options);
}

/** Whether an error is the server refusing its options (a user mistake, exit 2). */
export async function isServerConfigError(error: unknown): Promise<boolean> {
  const { ServerConfigError } = await import('@agent-runs/server');
  return error instanceof ServerConfigError;
}
