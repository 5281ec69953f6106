import type { RunEventHead, StoredRunEvent } from './run-event-store.js';

/** A `run_events` row as both databases answer it. */
export interface EventRow {
  run_id: string;
  id: number;
  kind: StoredRunEvent['kind'];
  data: string;
}

/** A `run_event_logs` row (PostgreSQL gives bigints as strings). */
export interface HeadRow {
  last_id: number;
  output_bytes: number | string;
  dropped_through: number;
  dropped_bytes: number | string;
  run_version: string;
}

/** The head of a run that has no events yet. */
export const EMPTY_HEAD: Readonly<RunEventHead> = { lastId: 0, outputBytes: 0, droppedThrough: 0, droppedBytes: 0, runVersion: '' };

export const toEvent = (row: EventRow): StoredRunEvent => ({ runId: row.run_id, id: row.id, kind: row.kind, data: row.data });

export const toHead = (row: HeadRow): RunEventHead => ({
  lastId: row.last_id,
  outputBytes: Number(row.output_bytes),
  droppedThrough: row.dropped_through,
  droppedBytes: Number(row.dropped_bytes),
  runVersion: row.run_version,
});
