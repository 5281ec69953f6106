/** One event as written to a watcher; `id` is left out for notes that are not part of the run's log. */
export interface OutgoingEvent {
  id?: number;
  name: string;
  data: string;
}

/** Where a watcher's events go: an SSE response, or anything that can take them in order. */
export interface RunEventSink {
  /** Writes one event; false once the receiver is behind (then wait for `onceDrained`). */
  send(event: OutgoingEvent): boolean;
  onceDrained(fn: () => void): void;
  /** Ends the stream; the sink calls the watcher's `close` itself when the receiver goes away. */
  end(): void;
}
