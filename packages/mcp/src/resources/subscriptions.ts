import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import { RECENT_RUNS_URI } from './recent-runs-resource.js';
import type { RunWatcher } from './run-watcher.js';
import { WatchLimitError } from './run-watcher.js';

/** `agent-run://{run_id}` (not an artifact's URI): the run id, else undefined. */
export function runIdOf(uri: string): string | undefined {
  const match = /^agent-run:\/\/([^/]+)$/.exec(uri);
  if (!match || uri === RECENT_RUNS_URI) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

/**
 * Revision 2025-11-25's resource subscriptions on one server (a session or a stdio
 * connection): `resources/subscribe` to `agent-run://{run_id}` sends
 * `notifications/resources/updated` for it, and for `agent-run://recent` when subscribed too,
 * on every change of the run, from its event stream. The server's close ends them.
 */
export function serveRunSubscriptions(server: McpServer, watcher: RunWatcher): void {
  server.server.registerCapabilities({ resources: { subscribe: true } });
  const stops = new Map<string, () => void>();
  let recent = false;
  server.server.setRequestHandler('resources/subscribe', async (request) => {
    const uri = request.params.uri;
    if (uri === RECENT_RUNS_URI) {
      // Updated when a run this session follows changes (there is no stream of every run).
      recent = true;
      return {};
    }
    const runId = runIdOf(uri);
    if (runId === undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot subscribe to ${uri.slice(0, 200)}: subscribe to agent-run://{run_id} or ${RECENT_RUNS_URI}.`);
    }
    if (stops.has(uri)) return {};
    try {
      stops.set(
        uri,
        watcher.watch(runId, () => {
          void server.server.sendResourceUpdated({ uri }).catch(() => {});
          if (recent) void server.server.sendResourceUpdated({ uri: RECENT_RUNS_URI }).catch(() => {});
        }),
      );
    } catch (error) {
      if (error instanceof WatchLimitError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
      throw error;
    }
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', async (request) => {
    const uri = request.params.uri;
    if (uri === RECENT_RUNS_URI) recent = false;
    stops.get(uri)?.();
    stops.delete(uri);
    return {};
  });
  const previous = server.server.onclose;
  server.server.onclose = () => {
    for (const stop of stops.values()) stop();
    stops.clear();
    previous?.();
  };
}
