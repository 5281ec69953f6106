/** What a run's event stream carries; `run` and `output` are the server's own, the rest come from features that hook in. */
export type RunEventKind = 'run' | 'output' | 'artifact' | 'followup';

/** One stored event: `data` is its JSON text, as sent. */
export interface StoredRunEvent {
  runId: string;
  /** Increases by one per event of the run, from 1. */
  id: number;
  kind: RunEventKind;
  data: string;
}

/** An event to append; `bytes` is the size of its output text (0 for other kinds). */
export interface NewRunEvent {
  runId: string;
  kind: RunEventKind;
  data: string;
  bytes: number;
}

/** Where a run's event log stands. */
export interface RunEventHead {
  /** The newest event's id; 0 when the run has none. */
  lastId: number;
  /** Output bytes kept. */
  outputBytes: number;
  /** Output events up to this id were dropped to keep the bound; 0 when none were. */
  droppedThrough: number;
  droppedBytes: number;
  /** The `updated_at` and state of the run as its newest `run` event showed it. */
  runVersion: string;
}

/**
 * A run's events, numbered per run and kept across restarts. Output is bounded per
 * run: past `outputLimitBytes` the oldest output events are dropped and counted. Appends
 * of one run are numbered without gaps even when several servers append at once.
 */
export interface RunEventStore {
  /** Appends in order, numbering each event; `runVersion` is recorded for `run` events. Returns them stored. */
  append(events: readonly (NewRunEvent & { runVersion?: string })[], outputLimitBytes: number): Promise<StoredRunEvent[]>;
  /** Events after `afterId`, oldest first, at most `limit` of them (only output when `outputOnly`). */
  after(runId: string, afterId: number, limit: number, outputOnly?: boolean): Promise<StoredRunEvent[]>;
  /** The newest output events up to `throughId` whose text adds up to about `maxBytes`, oldest first. */
  outputTail(runId: string, throughId: number, maxBytes: number): Promise<StoredRunEvent[]>;
  /** The newest `run` event, if any. */
  latestRunEvent(runId: string): Promise<StoredRunEvent | undefined>;
  head(runId: string): Promise<RunEventHead>;
}
