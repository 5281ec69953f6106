import type { AgentRunsClient } from '@agent-runs/core';

type Listener = () => void;

/** Runs followed at once for subscribers; past it a subscription is refused. */
export const MAX_WATCHED_RUNS = 200;

export class WatchLimitError extends Error {}

interface Watch {
  listeners: Set<Listener>;
  controller: AbortController;
}

/**
 * Follows each run someone subscribed to on the run's event stream (core's runs.events,
 * which polls only a server without the stream) and calls its listeners on every change
 * of the run, until the last listener leaves. One follow per run, whoever subscribes.
 */
export class RunWatcher {
  private readonly watches = new Map<string, Watch>();

  constructor(private readonly client: AgentRunsClient) {}

  /** Calls `listener` whenever run `runId` changes; returns the way to stop. */
  watch(runId: string, listener: Listener): () => void {
    let watch = this.watches.get(runId);
    if (!watch) {
      if (this.watches.size >= MAX_WATCHED_RUNS) throw new WatchLimitError(`At most ${MAX_WATCHED_RUNS} runs are watched at once; unsubscribe from some first.`);
      watch = { listeners: new Set(), controller: new AbortController() };
      this.watches.set(runId, watch);
      void this.follow(runId, watch);
    }
    watch.listeners.add(listener);
    const current = watch;
    return () => {
      current.listeners.delete(listener);
      if (current.listeners.size === 0 && this.watches.get(runId) === current) {
        this.watches.delete(runId);
        current.controller.abort();
      }
    };
  }

  close(): void {
    for (const watch of this.watches.values()) watch.controller.abort();
    this.watches.clear();
  }

  private async follow(runId: string, watch: Watch): Promise<void> {
    try {
      for await (const event of this.client.runs.events(runId, { signal: watch.controller.signal })) {
        if (event.type !== 'run' && event.type !== 'artifact' && event.type !== 'followup') continue;
        for (const listener of [...watch.listeners]) listener();
      }
    } catch {
      // Stopped, or the run is gone: subscribers read it again and see.
    } finally {
      if (this.watches.get(runId) === watch) this.watches.delete(runId);
    }
  }
}
