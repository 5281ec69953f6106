import { isTerminalState } from '@agent-runs/core/contract';
import type { RunEventStore, StoredRunEvent } from '../store/run-events/run-event-store.js';
import type { RunEventSink } from '../domain/run-event-sink.js';

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
 * the log, then takes new events as this server stores them; events another server
 * stored, and a receiver that fell behind, send it back to reading the store (so the
 * server holds no backlog for it), and output the bound dropped in the meantime is
 * announced with a `skipped` note. Ids only increase, so nothing is sent twice. The
 * stream ends after the run's terminal `run` event; an earlier end that a follow-up took
 * the run on from is left out.
 */
export class RunEventWatcher {
  private lastSentId: number;
  /** Level with the log: new events are taken as they are stored. */
  private live = false;
  private replaying = false;
  /** Something was stored while the replay read the store: read again before going live. */
  private again = false;
  private waitingForDrain = false;
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
    private readonly log: (line: string) => void = () => {},
  ) {
    this.lastSentId = afterId;
  }

  /** Reads the store from the last sent id (at the start, and when events were stored elsewhere). */
  wake(): void {
    if (this.closed || this.waitingForDrain) return;
    if (this.replaying) {
      this.again = true;
      return;
    }
    this.live = false;
    void this.replay();
  }

  /**
   * An event this server stored, in order, once per event; `latestRunId` is the newest
   * `run` event stored with it (an end it supersedes is not the end of the stream).
   */
  deliver(event: StoredRunEvent, latestRunId = 0): void {
    if (this.closed || event.id <= this.lastSentId) return;
    if (!this.live) {
      if (this.replaying) this.again = true;
      return;
    }
    // Something was stored without reaching this watcher: read it from the store.
    if (event.id !== this.lastSentId + 1) return this.wake();
    if (!this.write(event, latestRunId)) this.fallBehind();
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
    this.waitingForDrain = true;
    this.sink.onceDrained(() => {
      this.waitingForDrain = false;
      this.wake();
    });
  }

  private async replay(): Promise<void> {
    this.replaying = true;
    try {
      while (!this.closed) {
        this.again = false;
        const head = await this.store.head(this.runId);
        if (this.closed) return;
        // A Last-Event-ID beyond the log (another server's, or made up) resumes from its end,
        // so the run's next events, its end included, still reach this stream.
        if (head.lastId < this.lastSentId) this.lastSentId = head.lastId;
        if (head.droppedThrough > this.lastSentId) await this.skipGap(head.droppedThrough, head.droppedBytes);
        const batch = this.closed ? [] : await this.store.after(this.runId, this.lastSentId, REPLAY_BATCH);
        const latestRun = this.closed ? undefined : await this.store.latestRunEvent(this.runId);
        if (this.closed) return;
        if (batch.length === 0) {
          // Level with the log: a run already over (its terminal event sent before) has nothing more to say.
          if (latestRun && latestRun.id <= this.lastSentId && isTerminalRunEvent(latestRun)) return this.close();
          if (this.again) continue;
          this.live = true;
          return;
        }
        for (const event of batch) {
          if (!this.write(event, latestRun?.id ?? 0)) return this.fallBehind();
          if (this.closed) return;
        }
        // A short batch was the end of the log when read, and nothing was stored since: live
        // now, without reading the store once more (a thousand streams opening at once notice).
        if (batch.length < REPLAY_BATCH && !this.again) {
          this.live = true;
          return;
        }
      }
    } catch (error) {
      // The store failed under the stream: end it; the client resumes from its last id.
      this.log(`Could not read the events of run ${this.runId}: ${(error as Error).message}`);
      this.close();
    } finally {
      this.replaying = false;
    }
  }

  /**
   * The output after the last sent id is partly gone: say so, send the run as it is now,
   * and go on from the first output still kept (older `run` events are superseded).
   */
  private async skipGap(droppedThrough: number, droppedBytes: number): Promise<void> {
    const latestRun = await this.store.latestRunEvent(this.runId);
    if (this.closed) return;
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
  private write(event: StoredRunEvent, latestRunId: number): boolean {
    if (event.id <= this.lastSentId) return true;
    this.lastSentId = event.id;
    if (event.kind === 'run' && event.id < this.skipRunEventsThrough) return true;
    const terminal = isTerminalRunEvent(event);
    // A run a follow-up started again: its old end is history, not the end of this stream.
    if (terminal && latestRunId > event.id) return true;
    const data = this.view(event);
    const ok = data === undefined ? true : this.sink.send({ id: event.id, name: event.kind, data });
    if (terminal) this.close();
    return ok;
  }
}
