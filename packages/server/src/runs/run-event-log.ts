import type { RunItem } from '@agent-runs/core/contract';
import { backoffDelay, type BackoffPlan } from '../domain/backoff.js';
import type { ArtifactRecord } from '../store/artifacts/artifact-store.js';
import type { RunEventKind, RunEventStore, StoredRunEvent } from '../store/run-events/run-event-store.js';
import type { NewRun, RunRecord } from '../store/runs/run-record.js';
import type { CreatedRunEvent } from '../store/runs/run-store.js';
import { isStoreUnreachable } from '../store/store-unreachable.js';
import type { RunEventSink } from '../domain/run-event-sink.js';
import { RunEventStreams } from './run-event-streams.js';
import type { RunEventView, RunEventWatcher } from './run-event-watcher.js';

/** Default bound on the output kept per run: past it the oldest output is dropped. */
export const DEFAULT_OUTPUT_LIMIT_BYTES = 8 * 1024 * 1024;
/**
 * Events written in one turn of the event loop at most. A burst (a thousand runs printing
 * their last line at once) then goes over several turns, not in one transaction that holds
 * up everything else: the run endings and webhook deliveries behind it.
 */
const EVENTS_PER_TURN = 64;
/** Output is stored and sent in chunks of at most this many characters. */
const MAX_CHUNK_CHARS = 16 * 1024;

interface Pending {
  runId: string;
  kind: RunEventKind;
  /** Output text, merged with the next chunk of the same stream while it fits. */
  text?: string;
  stream?: string;
  at?: string;
  /** The JSON of any other event; a `run` event's is filled in once the run's artifacts are read. */
  data?: string;
  /** False while the data is being made: it and everything after it wait. */
  ready: boolean;
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

/** Output held while the database is unreachable, at most (the oldest goes first past it). */
const HELD_OUTPUT_CHARS = 16 * 1024 * 1024;
/** Between tries while the database is unreachable: from 250 ms, doubling up to 2 s. */
const OUTAGE_RETRY: BackoffPlan = { firstMs: 250, maxMs: 2000 };
/** How often the notes of output the store refused are tried again when nothing else is written. */
const DROPPED_NOTE_RETRY_MS = 1000;

/** The line a run's output gets where the store refused some of it (a full disk, say). */
export const droppedOutputNote = (bytes: number, reason: string) =>
  `[agent-runs] ${bytes} bytes of output could not be stored and were dropped here (${reason}).\n`;

/**
 * The runs' event log, written behind: the state changes and the agent's output, numbered
 * per run, kept in the store and then handed to the open streams. Everything is written in
 * the order it happened (output printed before a run ended comes before its terminal `run`
 * event); what arrives in one turn of the event loop is written in one transaction, up to
 * EVENTS_PER_TURN.
 */
export class RunEventLog {
  private queue: Pending[] = [];
  /** The database is unreachable: events wait in the queue (bounded) and the write is retried. */
  private outage = false;
  private droppedInOutage = 0;
  /** Per run, the output the store refused (bytes, and the first reason), noted in its output at the next write that succeeds. */
  private readonly refusedOutput = new Map<string, { bytes: number; reason: string }>();
  private noteRetry: NodeJS.Timeout | undefined;
  private closing = false;
  private scheduled = false;
  /** Run events whose data is being made. */
  private readonly making = new Set<Promise<void>>();
  /** The streams open on this server, which get every event once it is stored. */
  readonly streams: RunEventStreams;
  /** Writes in order: each batch is appended after the one before. */
  private writing: Promise<void> = Promise.resolve();
  /** Told of every run change made here as it is reported, before its event is written. */
  private readonly changeListeners = new Set<(state: string) => void>();

  constructor(
    private readonly store: RunEventStore,
    /**
     * The run as the API shows it (session link, artifacts), as `GET /agent/runs/{runId}`
     * answers; its artifacts are read unless given.
     */
    private readonly runItem: (run: RunRecord, artifacts?: readonly ArtifactRecord[]) => Promise<RunItem>,
    private readonly outputLimitBytes: number,
    private readonly log: (line: string) => void,
  ) {
    this.streams = new RunEventStreams(store, log);
  }

  /** The agent printed `text`. */
  output(runId: string, stream: 'stdout' | 'stderr', text: string): void {
    if (text === '') return;
    if (this.outage) this.keepWithinHeldBound(text.length);
    const last = this.queue.at(-1);
    if (last?.kind === 'output' && last.ready && last.runId === runId && last.stream === stream && last.text!.length + text.length <= MAX_CHUNK_CHARS) {
      last.text += text;
      return;
    }
    const at = new Date().toISOString();
    for (const part of chunks(text)) this.push({ runId, kind: 'output', text: part, stream, at, ready: true });
  }

  /**
   * The run changed (state, status message, artifacts...): its streams get the whole run.
   * Its place in the log is taken now; it is written once the run is read in full.
   * `artifacts` when the caller knows them (a run just created has none), saving the read.
   */
  runChanged(run: RunRecord, artifacts?: readonly ArtifactRecord[]): Promise<void> {
    this.tellChanged(run.state);
    const entry: Pending = { runId: run.id, kind: 'run', ready: false, runVersion: runVersion(run) };
    this.push(entry);
    const made = this.runItem(run, artifacts).then(
      (item) => {
        entry.data = JSON.stringify(item);
      },
      (error: unknown) => {
        this.log(`Could not read run ${run.id} for its event stream: ${(error as Error).message}`);
        entry.data = JSON.stringify({ run_id: run.id, task_id: run.id, title: run.title, state: run.state, prompt: run.prompt, created_at: run.createdAt, updated_at: run.updatedAt });
      },
    );
    const done = made.then(() => {
      entry.ready = true;
      this.making.delete(done);
      this.schedule();
    });
    this.making.add(done);
    return done;
  }

  /**
   * A run about to be created: its first `run` event, which the store writes in the create's
   * own transaction (one commit for both); `firstStored` hands it to the streams once stored.
   * A run just made has no artifacts: no read of them.
   */
  async firstEvent(run: NewRun): Promise<CreatedRunEvent> {
    const record: RunRecord = { ...run, seq: 0 };
    return { data: JSON.stringify(await this.runItem(record, [])), runVersion: runVersion(record) };
  }

  /** The create stored `event` as the run's event 1. */
  firstStored(runId: string, event: CreatedRunEvent): void {
    this.tellChanged('QUEUED');
    this.streams.deliver([{ runId, id: 1, kind: 'run', data: event.data }]);
  }

  /**
   * Calls `listener` with the new state of every run changed on this server, as soon as the
   * change is committed (what reports it is: the webhook outbox is written in the change's
   * own transaction), without waiting for the run's event to be read and written; returns
   * its removal. Changes stored by other servers reach `streams.onRunChange` only.
   */
  onChange(listener: (state: string) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private tellChanged(state: string): void {
    for (const listener of this.changeListeners) listener(state);
  }

  /**
   * An event of a feature that hooks into the stream (`artifact`, `followup`): `data` is
   * sent as JSON, in order with the rest. Call `runChanged` too when the run itself changed.
   */
  emit(runId: string, kind: Exclude<RunEventKind, 'run' | 'output'>, data: unknown): void {
    this.push({ runId, kind, data: JSON.stringify(data), ready: true });
  }

  /**
   * Records a `run` event when the run changed without one (a restart marked it FAILED,
   * or it predates the event log), so a stream always ends with the run as it is.
   */
  async reconcile(run: RunRecord): Promise<void> {
    await Promise.all(this.making);
    await this.flush();
    if ((await this.store.head(run.id)).runVersion === runVersion(run)) return;
    await this.runChanged(run);
    await this.flush();
  }

  /** Opens a stream of the run's events after `afterId`, shown through `view`. */
  watch(runId: string, afterId: number, sink: RunEventSink, view: RunEventView): RunEventWatcher {
    const watcher = this.streams.open(runId, afterId, sink, view);
    // What is queued now is written first; the replay then reads it from the store.
    void this.flush().then(() => watcher.wake());
    return watcher;
  }

  /** The output kept for the run, in order (at most the per-run bound), for transcripts and the like. */
  async outputText(runId: string): Promise<string> {
    await this.flush();
    let text = '';
    let after = 0;
    for (;;) {
      const batch = await this.store.after(runId, after, 1000, true);
      if (batch.length === 0) return text;
      for (const event of batch) text += (JSON.parse(event.data) as { text: string }).text;
      after = batch.at(-1)!.id;
    }
  }

  get eventStore(): RunEventStore {
    return this.store;
  }

  /** Writes what is queued now (before shutdown, or before reading the log); resolves once it is stored. */
  flush(): Promise<void> {
    return this.writeReady(Number.POSITIVE_INFINITY);
  }

  /** Writes what is ready, in order, up to the first event still being made: `limit` events at most, the rest a turn later. */
  private writeReady(limit: number): Promise<void> {
    this.scheduled = false;
    // During an outage the queue stays here, bounded, until the write under way gets through.
    if (this.outage) return this.writing;
    const waiting = this.queue.findIndex((p) => !p.ready);
    const ready = waiting === -1 ? this.queue.length : waiting;
    const end = Math.min(ready, limit);
    if (end > 0) {
      const batch = this.queue.slice(0, end);
      this.queue = this.queue.slice(end);
      this.writing = this.writing.then(() => this.write(batch));
    }
    if (end < ready) this.schedule();
    return this.writing;
  }

  private async write(events: Pending[]): Promise<void> {
    // Where the store refused a run's output before, its output says so first.
    const notes = this.refusedOutput.size === 0 ? [] : [...this.refusedOutput].map(([runId, { bytes, reason }]): Pending => ({
      runId,
      kind: 'output',
      stream: 'stderr',
      text: droppedOutputNote(bytes, reason),
      at: new Date().toISOString(),
      ready: true,
    }));
    const batch = notes.length === 0 ? events : [...notes, ...events];
    if (batch.length === 0) return;
    let stored: StoredRunEvent[] | undefined;
    for (let failures = 1; !stored; failures++) {
      try {
        stored = await this.append(batch);
      } catch (error) {
        if (this.closing || !isStoreUnreachable(error)) {
          // The store is closing or refuses these events: the run's state is kept by the run store; its events are lost,
          // and its output notes how much of it was.
          this.refused(events, error as Error);
          return;
        }
        if (!this.outage) {
          this.outage = true;
          this.log(`The database is unreachable; the agents' output waits here (up to ${HELD_OUTPUT_CHARS / 1024 / 1024} MiB) until it returns.`);
        }
        await new Promise((r) => setTimeout(r, backoffDelay(OUTAGE_RETRY, failures)));
      }
    }
    if (this.outage) {
      this.outage = false;
      const dropped = this.droppedInOutage;
      this.droppedInOutage = 0;
      this.log(`The database is back; the output held meanwhile is written${dropped ? ` (the oldest ${dropped} characters were dropped to stay within the bound)` : ''}.`);
      this.schedule();
    }
    for (const note of notes) this.refusedOutput.delete(note.runId);
    this.streams.deliver(stored);
  }

  /** The store refused `events` (not an outage: a full disk, say): logged, and each run's lost output counted for its note. */
  private refused(events: Pending[], error: Error): void {
    const reason = error.message.split('\n')[0]!.slice(0, 200);
    let bytes = 0;
    for (const p of events) {
      if (p.kind !== 'output') continue;
      const lost = Buffer.byteLength(p.text!);
      bytes += lost;
      const counted = this.refusedOutput.get(p.runId);
      this.refusedOutput.set(p.runId, { bytes: (counted?.bytes ?? 0) + lost, reason: counted?.reason ?? reason });
    }
    this.log(`Could not record ${events.length} run event(s)${bytes ? ` (${bytes} bytes of output, noted in the runs' output once the store takes writes)` : ''}: ${reason}`);
    // The notes go with the next write, or on their own when nothing else comes.
    if (this.refusedOutput.size > 0 && !this.noteRetry && !this.closing) {
      this.noteRetry = setTimeout(() => {
        this.noteRetry = undefined;
        this.writing = this.writing.then(() => this.write([]));
      }, DROPPED_NOTE_RETRY_MS).unref();
    }
  }

  /** Drops the oldest queued output until `adding` more characters fit the outage bound. */
  private keepWithinHeldBound(adding: number): void {
    let held = adding;
    for (const p of this.queue) if (p.kind === 'output') held += p.text!.length;
    while (held > HELD_OUTPUT_CHARS) {
      const oldest = this.queue.findIndex((p) => p.kind === 'output');
      if (oldest === -1) return;
      const [dropped] = this.queue.splice(oldest, 1);
      held -= dropped!.text!.length;
      this.droppedInOutage += dropped!.text!.length;
    }
  }

  private append(batch: Pending[]): Promise<StoredRunEvent[]> {
    return this.store.append(
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
  }

  /** Writes the last events, then ends every open stream (server shutdown). */
  async closeAll(): Promise<void> {
    // A write waiting out an outage makes one more try, then gives up.
    this.closing = true;
    clearTimeout(this.noteRetry);
    await Promise.all(this.making);
    await this.flush();
    this.streams.closeAll();
  }

  private push(pending: Pending): void {
    this.queue.push(pending);
    this.schedule();
  }

  private schedule(): void {
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.writeReady(EVENTS_PER_TURN));
    }
  }
}
