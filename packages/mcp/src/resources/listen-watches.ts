import { RECENT_RUNS_URI } from './recent-runs-resource.js';
import { MAX_WATCHED_RUNS, WatchLimitError, type RunWatcher } from './run-watcher.js';
import { runIdOf } from './subscriptions.js';

interface Follow {
  /** Open listen streams that name this run. */
  count: number;
  stop: () => void;
}

/** The resource URIs a `subscriptions/listen` request asks to hear about (at most a watcher's worth). */
function listenedUris(params: unknown): string[] {
  const wanted = (params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)?.notifications?.resourceSubscriptions;
  if (!Array.isArray(wanted)) return [];
  return [...new Set(wanted.filter((uri): uri is string => typeof uri === 'string'))].slice(0, MAX_WATCHED_RUNS + 1);
}

/**
 * Revision 2026-07-28's live runs: while a `subscriptions/listen` stream that names
 * `agent-run://{run_id}` is open, the run is followed on its event stream and each change
 * is emitted as that URI (and as `agent-run://recent` while a stream names it), for the
 * serving entry to deliver to the streams that asked. One follow per run, however many
 * streams name it, so no stream hears a change twice.
 */
export class ListenWatches {
  private readonly follows = new Map<string, Follow>();
  private recent = 0;

  constructor(
    private readonly watcher: RunWatcher,
    private readonly emit: (uri: string) => void,
  ) {}

  /** A listen stream opened with these params: follows the runs it names until the returned stop. */
  open(params: unknown): () => void {
    const held: string[] = [];
    let withRecent = false;
    for (const uri of listenedUris(params)) {
      if (uri === RECENT_RUNS_URI) {
        withRecent = true;
        continue;
      }
      const runId = runIdOf(uri);
      if (runId === undefined) continue;
      const follow = this.follows.get(uri);
      if (follow) {
        follow.count += 1;
        held.push(uri);
        continue;
      }
      try {
        const stop = this.watcher.watch(runId, () => {
          this.emit(uri);
          if (this.recent > 0) this.emit(RECENT_RUNS_URI);
        });
        this.follows.set(uri, { count: 1, stop });
        held.push(uri);
      } catch (error) {
        // Past the watcher's cap a run is not followed; the others still are.
        if (!(error instanceof WatchLimitError)) throw error;
      }
    }
    if (withRecent) this.recent += 1;
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      if (withRecent) this.recent -= 1;
      for (const uri of held) {
        const follow = this.follows.get(uri);
        if (!follow) continue;
        follow.count -= 1;
        if (follow.count === 0) {
          follow.stop();
          this.follows.delete(uri);
        }
      }
    };
  }

  /** Runs followed now (for tests and limits). */
  get size(): number {
    return this.follows.size;
  }
}
