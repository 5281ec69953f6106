import type pg from 'pg';
import { toNumber } from '../postgres-transaction.js';
import { EMPTY_HEAD, toEvent, toHead, type EventRow, type HeadRow } from './event-row.js';
import type { NewRunEvent, RunEventHead, RunEventStore, StoredRunEvent } from './run-event-store.js';

/**
 * `insert` (a run's INSERT … RETURNING seq, its values up to `$(at - 1)`) with the run's
 * first event (id 1) and its log's head written by the same statement when a row was
 * inserted; `$at` is the run id, `$(at + 1)` the event's data, `$(at + 2)` its run version.
 * A new run has no stream on any server yet (a stream opened later reads the log), so no
 * notification is sent.
 */
export function withFirstRunEvent(insert: string, at: number): string {
  return `WITH inserted AS (${insert}),
  first_event AS (INSERT INTO run_events (run_id, id, kind, data, bytes) SELECT $${at}::text, 1, 'run', $${at + 1}::text, 0 FROM inserted),
  first_head AS (INSERT INTO run_event_logs (run_id, last_id, run_version) SELECT $${at}::text, 1, $${at + 2}::text FROM inserted)
SELECT seq FROM inserted`;
}

/** How many of the newest output events one query of outputTail reads, as on SQLite. */
const BATCH = 64;

/**
 * The event log in PostgreSQL. An append (the database function `agent_runs_append_events`,
 * see postgres-migrations.ts) locks the `run_event_logs` row of each of its runs (in run id
 * order, so two batches never wait on each other in a circle) for its whole transaction:
 * appends of one run by several servers queue there and are numbered without gaps. The same
 * transaction sends each run's new last id on the `agent_runs` channel, so the other
 * servers' streams read the events as soon as they are committed.
 */
export class PostgresRunEventStore implements RunEventStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly serverId: string,
  ) {}

  async append(events: readonly (NewRunEvent & { runVersion?: string })[], outputLimitBytes: number): Promise<StoredRunEvent[]> {
    if (events.length === 0) return [];
    // One call of the function migration step 2 made: locks, numbering, bound and signal in one round trip.
    const { rows } = await this.pool.query<{ ord: number; id: number }>({
      name: 'agent-runs-append-events',
      text: 'SELECT ord, id FROM agent_runs_append_events($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::bigint, $7::text)',
      values: [
        events.map((e) => e.runId),
        events.map((e) => e.kind),
        events.map((e) => e.data),
        events.map((e) => e.bytes),
        events.map((e) => e.runVersion ?? null),
        outputLimitBytes,
        this.serverId,
      ],
    });
    return rows.map(({ ord, id }) => {
      const event = events[ord - 1]!;
      return { runId: event.runId, id, kind: event.kind, data: event.data };
    });
  }

  async after(runId: string, afterId: number, limit: number, outputOnly = false): Promise<StoredRunEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT run_id, id, kind, data FROM run_events WHERE run_id = $1 AND id > $2 ${outputOnly ? "AND kind = 'output'" : ''}
       ORDER BY id LIMIT $3`,
      [runId, afterId, limit],
    );
    return rows.map(toEvent);
  }

  async outputTail(runId: string, throughId: number, maxBytes: number): Promise<StoredRunEvent[]> {
    const picked: StoredRunEvent[] = [];
    let bytes = 0;
    let before = throughId;
    while (bytes < maxBytes) {
      const { rows } = await this.pool.query<EventRow & { bytes: string }>(
        `SELECT run_id, id, kind, data, bytes FROM run_events WHERE run_id = $1 AND id <= $2 AND kind = 'output'
         ORDER BY id DESC LIMIT ${BATCH}`,
        [runId, before],
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        picked.push(toEvent(row));
        bytes += toNumber(row.bytes);
        if (bytes >= maxBytes) break;
      }
      before = rows.at(-1)!.id - 1;
    }
    return picked.reverse();
  }

  async latestRunEvent(runId: string): Promise<StoredRunEvent | undefined> {
    const { rows } = await this.pool.query<EventRow>(
      "SELECT run_id, id, kind, data FROM run_events WHERE run_id = $1 AND kind = 'run' ORDER BY id DESC LIMIT 1",
      [runId],
    );
    return rows[0] ? toEvent(rows[0]) : undefined;
  }

  async head(runId: string): Promise<RunEventHead> {
    const { rows } = await this.pool.query<HeadRow>(
      'SELECT run_id, last_id, output_bytes, dropped_through, dropped_bytes, run_version FROM run_event_logs WHERE run_id = $1',
      [runId],
    );
    return rows[0] ? toHead(rows[0]) : { ...EMPTY_HEAD };
  }
}
