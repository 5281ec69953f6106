import type { RunEventStore, StoredRunEvent } from '../store/run-events/run-event-store.js';
import type { RunEventSink } from '../domain/run-event-sink.js';
import { RunEventWatcher, type RunEventView } from './run-event-watcher.js';

/** The streams open on this server, by run: each stored event reaches the streams of its run. */
export class RunEventStreams {
  private readonly watchers = new Map<string, Set<RunEventWatcher>>();
  private readonly runListeners = new Set<RunChangeListener>();

  constructor(
    private readonly store: RunEventStore,
    private readonly log: (line: string) => void,
  ) {}

  /** Opens a stream of the run's events after `afterId`, shown through `view`; it reads the store once woken. */
  open(runId: string, afterId: number, sink: RunEventSink, view: RunEventView): RunEventWatcher {
    let set = this.watchers.get(runId);
    if (!set) this.watchers.set(runId, (set = new Set()));
    const watcher = new RunEventWatcher(runId, afterId, this.store, sink, view, (w) => this.forget(w), this.log);
    set.add(watcher);
    return watcher;
  }

  /** Events just stored here: each goes to its run's streams. */
  deliver(stored: readonly StoredRunEvent[]): void {
    // A `run` event later in the batch supersedes an end before it (a follow-up started the run again).
    const latestRun = new Map<string, number>();
    const runData = new Map<string, string>();
    for (const event of stored) {
      if (event.kind !== 'run') continue;
      latestRun.set(event.runId, event.id);
      runData.set(event.runId, event.data);
    }
    for (const [runId, data] of runData) this.runChanged(runId, data);
    for (const event of stored) {
      const set = this.watchers.get(event.runId);
      if (set) for (const watcher of [...set]) watcher.deliver(event, latestRun.get(event.runId) ?? 0);
    }
  }

  /** Another server stored events of the run: its streams here read them from the store. */
  storedElsewhere(runId: string): void {
    this.runChanged(runId, undefined);
    const set = this.watchers.get(runId);
    if (set) for (const watcher of [...set]) watcher.wake();
  }

  /** Signals from other servers may have been missed: every stream reads the store again. */
  wakeAll(): void {
    this.runChanged(undefined, undefined);
    for (const set of [...this.watchers.values()]) for (const watcher of [...set]) watcher.wake();
  }

  /** How many streams are open (for tests and the health of many watchers). */
  get count(): number {
    let n = 0;
    for (const set of this.watchers.values()) n += set.size;
    return n;
  }

  /** Ends every open stream (server shutdown). */
  closeAll(): void {
    for (const set of [...this.watchers.values()]) for (const watcher of [...set]) watcher.close();
  }

  private forget(watcher: RunEventWatcher): void {
    const set = this.watchers.get(watcher.runId);
    if (!set) return;
    set.delete(watcher);
    if (set.size === 0) this.watchers.delete(watcher.runId);
  }

  /** Calls `listener` when a run changed here or elsewhere (its id), or changes may have been missed (undefined); returns its removal. */
  onRunChange(listener: RunChangeListener): () => void {
    this.runListeners.add(listener);
    return () => this.runListeners.delete(listener);
  }

  private runChanged(runId: string | undefined, run: string | undefined): void {
    for (const listener of this.runListeners) listener(runId, run);
  }
}

/** Told of a run that changed (undefined: any may have), with the run as its `run` event holds it (JSON) when known. */
export type RunChangeListener = (runId: string | undefined, run: string | undefined) => void;
