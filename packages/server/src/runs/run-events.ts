import type { RunEventKind, RunEventStore, StoredRunEvent } from '../store/run-event-store.js';
import type { RunRecord } from '../store/run-record.js';
import type { RunEventSink } from './run-event-sink.js';
import { RunEventWatcher, type RunEventView } from './run-event-watcher.js';
import { toRunItem } from './to-run-item.js';

/** Default bound on the output kept per run: past it the oldest output is dropped. */
export const DEFAULT_OUTPUT_LIMIT_BYTES = 8 * 1024 * 1024;
/** Output is stored and sent in chunks of at most this many characters. */
const MAX_CHUNK_CHARS = 16 * 1024;

interface Pending {
  runId: string;
  kind: RunEventKind;
  /** Output text, merged with the next chunk of the same stream while it fits. */
  text?: string;
  stream?: string;
  at?: string;
  /** The JSON of any other event. */
  data?: string;
  runVersion?: string;
}

/** What decides whether a run event is due: a run changes `updated_at` on every transition. */
export const runVersion = (run: RunRecord) => `${run.updatedAt} ${run.state}`;

/** Splits text into chunks that never cut a surrogate pair. */
function chunks(text: string): string[] {
  if (text.length <= MAX_CHUNK_CHARS) return [text];
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + MAX_CHUNK_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

/**
 * A run's event log: the state changes and the agent's output, numbered per run, kept in
 * the store and published to the run's open streams. Everything is written in the order
 * it happened (output printed before a run ended comes before its terminal `run` event);
 * what arrives in one turn of the event loop is written in one transaction.
 */
export class RunEvents {
  private queue: Pending[] = [];
  private scheduled = false;
  private readonly watchers = new Map<string, Set<RunEventWatcher>>();

  constructor(
    private readonly store: RunEventStore,
    /** The run's `session_link`, as the API shows it. */
    private readonly sessionLink: (run: RunRecord) => string,
    private readonly outputLimitBytes: number,
    private readonly log: (line: string) => void,
  ) {}

  /** The agent printed `text`. */
  output(runId: string, stream: 'stdout' | 'stderr', text: string): void {
    if (text === '') return;
    const last = this.queue.at(-1);
    if (last?.kind === 'output' && last.runId === runId && last.stream === stream && last.text!.length + text.length <= MAX_CHUNK_CHARS) {
      last.text += text;
      return;
    }
    const at = new Date().toISOString();
    for (const part of chunks(text)) this.push({ runId, kind: 'output', text: part, stream, at });
  }

  /** The run changed (state, status message, artifacts...): its streams get the whole run. */
  runChanged(run: RunRecord): void {
    this.push({ runId: run.id, kind: 'run', data: JSON.stringify(toRunItem(run, this.sessionLink(run))), runVersion: runVersion(run) });
  }

  /**
   * An event of a feature that hooks into the stream (`artifact`, `followup`): `data` is
   * sent as JSON, in order with the rest. Call `runChanged` too when the run itself changed.
   */
  emit(runId: string, kind: Exclude<RunEventKind, 'run' | 'output'>, data: unknown): void {
    this.push({ runId, kind, data: JSON.stringify(data) });
  }

  /**
   * Records a `run` event when the run changed without one (a restart marked it FAILED,
   * or it predates the event log), so a stream always ends with the run as it is.
   */
  async reconcile(run: RunRecord): Promise<void> {
    if (this.store.head(run.id).runVersion !== runVersion(run)) this.runChanged(run);
    this.flush();
  }

  /** Opens a stream of the run's events after `afterId`, shown through `view`. */
  watch(runId: string, afterId: number, sink: RunEventSink, view: RunEventView): RunEventWatcher {
    this.flush();
    let set = this.watchers.get(runId);
    if (!set) this.watchers.set(runId, (set = new Set()));
    const watcher = new RunEventWatcher(runId, afterId, this.store, sink, view, (w) => this.forget(w));
    set.add(watcher);
    watcher.start();
    return watcher;
  }

  get eventStore(): RunEventStore {
    return this.store;
  }

  /** How many streams are open (for tests and the health of many watchers). */
  get watcherCount(): number {
    let n = 0;
    for (const set of this.watchers.values()) n += set.size;
    return n;
  }

  /** Writes what is queued now (before shutdown, or before reading the log). */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    let stored: StoredRunEvent[];
    try {
      stored = this.store.append(
        batch.map((p) => {
          const data = p.kind === 'output' ? JSON.stringify({ stream: p.stream, text: p.text, at: p.at }) : p.data!;
          return {
            runId: p.runId,
            kind: p.kind,
            data,
            bytes: p.kind === 'output' ? Buffer.byteLength(p.text!) : 0,
            ...(p.runVersion !== undefined ? { runVersion: p.runVersion } : {}),
          };
        }),
        this.outputLimitBytes,
      );
    } catch (error) {
      // The store is closing or failing: the run's state is kept by the run store; its events are lost.
      this.log(`Could not record ${batch.length} run event(s): ${(error as Error).message}`);
      return;
    }
    for (const event of stored) {
      const set = this.watchers.get(event.runId);
      if (set) for (const watcher of [...set]) watcher.deliver(event);
    }
  }

  /** Ends every open stream (server shutdown). */
  closeAll(): void {
    this.flush();
    for (const set of [...this.watchers.values()]) for (const watcher of [...set]) watcher.close();
  }

  private push(pending: Pending): void {
    this.queue.push(pending);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private forget(watcher: RunEventWatcher): void {
    const set = this.watchers.get(watcher.runId);
    if (!set) return;
    set.delete(watcher);
    if (set.size === 0) this.watchers.delete(watcher.runId);
  }
}
