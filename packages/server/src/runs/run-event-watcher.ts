import { isTerminalState } from '@agent-runs/core';
import type { RunEventStore, StoredRunEvent } from '../store/run-event-store.js';
import type { RunEventSink } from './run-event-sink.js';

/** Turns a stored event into what this watcher may see (its data), or undefined to leave it out. */
export type RunEventView = (event: StoredRunEvent) => string | undefined;

const REPLAY_BATCH = 256;

function isTerminalRunEvent(event: StoredRunEvent): boolean {
  if (event.kind !== 'run') return false;
  const { state } = JSON.parse(event.data) as { state?: string };
  return typeof state === 'string' && isTerminalState(state);
}

/**
 * One open stream of a run's events. It replays from the store until it is level with
 * the log, then takes new events as they are published; a receiver that falls behind
 * goes back to reading the store (so the server holds no backlog for it), and output the
 * bound dropped in the meantime is announced with a `skipped` note. Ids only increase,
 * so nothing is sent twice. The stream ends after the run's terminal `run` event; an
 * earlier end that a follow-up took the run on from is left out of a replay.
 */
export class RunEventWatcher {
  private lastSentId: number;
  private live = false;
  private closed = false;
  /** `run` events before this id were superseded by the run sent after a gap. */
  private skipRunEventsThrough = 0;

  constructor(
    readonly runId: string,
    afterId: number,
    private readonly store: RunEventStore,
    private readonly sink: RunEventSink,
    private readonly view: RunEventView,
    private readonly onClose: (watcher: RunEventWatcher) => void,
  ) {
    this.lastSentId = afterId;
  }

  /** Starts the replay; the stream may end at once when the run is over and fully sent. */
  start(): void {
    this.replay();
  }

  /** A newly stored event; in order, once per event. */
  deliver(event: StoredRunEvent): void {
    if (!this.live || this.closed || event.id <= this.lastSentId) return;
    if (event.id !== this.lastSentId + 1) {
      // Something was stored without reaching this watcher: read it from the store.
      this.live = false;
      this.replay();
      return;
    }
    if (!this.write(event)) this.fallBehind();
  }

  /** Ends the stream (server shutdown) or forgets it (receiver gone). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.sink.end();
    this.onClose(this);
  }

  private fallBehind(): void {
    if (this.closed) return;
    this.live = false;
    this.sink.onceDrained(() => this.replay());
  }

  private replay(): void {
    while (!this.closed) {
      const head = this.store.head(this.runId);
      if (head.droppedThrough > this.lastSentId) this.skipGap(head.droppedThrough, head.droppedBytes);
      if (this.closed) return;
      const batch = this.store.after(this.runId, this.lastSentId, REPLAY_BATCH);
      if (batch.length === 0) {
        // Level with the log: a run already over (its terminal event sent before) has nothing more to say.
        const latestRun = this.store.latestRunEvent(this.runId);
        if (latestRun && latestRun.id <= this.lastSentId && isTerminalRunEvent(latestRun)) return this.close();
        this.live = true;
        return;
      }
      for (const event of batch) {
        if (!this.write(event)) return this.fallBehind();
        if (this.closed) return;
      }
    }
  }

  /**
   * The output after the last sent id is partly gone: say so, send the run as it is now,
   * and go on from the first output still kept (older `run` events are superseded).
   */
  private skipGap(droppedThrough: number, droppedBytes: number): void {
    const latestRun = this.store.latestRunEvent(this.runId);
    const note = {
      through_id: droppedThrough,
      bytes: droppedBytes,
      message: `Earlier output was dropped to keep this run's output within the server's bound (${droppedBytes} bytes in all).`,
    };
    if (latestRun) {
      const data = this.view(latestRun);
      if (data !== undefined) this.sink.send({ name: 'run', data });
    }
    this.sink.send({ name: 'skipped', data: JSON.stringify(note) });
    this.lastSentId = droppedThrough;
    this.skipRunEventsThrough = latestRun?.id ?? 0;
  }

  /** Sends one event; false when the receiver is behind. Ends the stream after the terminal run event. */
  private write(event: StoredRunEvent): boolean {
    if (event.id <= this.lastSentId) return true;
    this.lastSentId = event.id;
    if (event.kind === 'run' && event.id < this.skipRunEventsThrough) return true;
    const terminal = isTerminalRunEvent(event);
    // A run a follow-up started again: its old end is history, not the end of this stream.
    if (terminal && (this.store.latestRunEvent(this.runId)?.id ?? 0) > event.id) return true;
    const data = this.view(event);
    const ok = data === undefined ? true : this.sink.send({ id: event.id, name: event.kind, data });
    if (terminal) this.close();
    return ok;
  }
}
