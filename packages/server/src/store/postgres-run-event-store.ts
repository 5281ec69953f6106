import type pg from 'pg';
import { inTransaction, toNumber } from './postgres-transaction.js';
import type { NewRunEvent, RunEventHead, RunEventStore, StoredRunEvent } from './run-event-store.js';

interface EventRow {
  run_id: string;
  id: number;
  kind: StoredRunEvent['kind'];
  data: string;
}

interface HeadRow {
  run_id: string;
  last_id: number;
  output_bytes: string;
  dropped_through: number;
  dropped_bytes: string;
  run_version: string;
}

const toEvent = (row: EventRow): StoredRunEvent => ({ runId: row.run_id, id: row.id, kind: row.kind, data: row.data });

const toHead = (row: HeadRow): RunEventHead => ({
  lastId: row.last_id,
  outputBytes: toNumber(row.output_bytes),
  droppedThrough: row.dropped_through,
  droppedBytes: toNumber(row.dropped_bytes),
  runVersion: row.run_version,
});

/** How many of the oldest (or newest) output events one query reads, as on SQLite. */
const BATCH = 64;

/**
 * The event log in PostgreSQL. An append locks the `run_event_logs` row of each of its runs
 * (in run id order, so two batches never wait on each other in a circle) for its whole
 * transaction: appends of one run by several servers queue there and are numbered without
 * gaps. The same transaction sends each run's new last id on the `agent_runs` channel, so
 * the other servers' streams read the events as soon as they are committed.
 */
export class PostgresRunEventStore implements RunEventStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly serverId: string,
  ) {}

  async append(events: readonly (NewRunEvent & { runVersion?: string })[], outputLimitBytes: number): Promise<StoredRunEvent[]> {
    if (events.length === 0) return [];
    const runIds = [...new Set(events.map((e) => e.runId))];
    return inTransaction(this.pool, async (client) => {
      await client.query(
        'INSERT INTO run_event_logs (run_id, last_id) SELECT id, 0 FROM unnest($1::text[]) AS t(id) ORDER BY id ON CONFLICT DO NOTHING',
        [runIds],
      );
      const locked = await client.query<HeadRow>(
        `SELECT run_id, last_id, output_bytes, dropped_through, dropped_bytes, run_version FROM run_event_logs
         WHERE run_id = ANY($1::text[]) ORDER BY run_id FOR UPDATE`,
        [runIds],
      );
      const heads = new Map(locked.rows.map((row) => [row.run_id, toHead(row)]));
      const stored: StoredRunEvent[] = [];
      const bytes: number[] = [];
      for (const event of events) {
        const head = heads.get(event.runId)!;
        head.lastId += 1;
        head.outputBytes += event.bytes;
        if (event.runVersion !== undefined) head.runVersion = event.runVersion;
        stored.push({ runId: event.runId, id: head.lastId, kind: event.kind, data: event.data });
        bytes.push(event.bytes);
      }
      await client.query(
        'INSERT INTO run_events (run_id, id, kind, data, bytes) SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::bigint[])',
        [stored.map((e) => e.runId), stored.map((e) => e.id), stored.map((e) => e.kind), stored.map((e) => e.data), bytes],
      );
      for (const [runId, head] of heads) {
        await this.dropOldest(client, runId, head, outputLimitBytes);
        await client.query(
          `UPDATE run_event_logs SET last_id = $2, output_bytes = $3, dropped_through = $4, dropped_bytes = $5, run_version = $6
           WHERE run_id = $1`,
          [runId, head.lastId, head.outputBytes, head.droppedThrough, head.droppedBytes, head.runVersion],
        );
      }
      const signals = [...heads].map(([runId, head]) => JSON.stringify({ kind: 'events', runId, lastId: head.lastId, from: this.serverId }));
      await client.query("SELECT pg_notify('agent_runs', s) FROM unnest($1::text[]) AS t(s)", [signals]);
      return stored;
    });
  }

  /** Deletes the oldest output until what is kept fits the bound (the newest chunk always stays). */
  private async dropOldest(client: pg.ClientBase, runId: string, head: RunEventHead, limit: number): Promise<void> {
    const dropped: number[] = [];
    let after = 0;
    while (head.outputBytes > limit) {
      const { rows } = await client.query<{ id: number; bytes: string }>(
        `SELECT id, bytes FROM run_events WHERE run_id = $1 AND kind = 'output' AND id > $2 ORDER BY id LIMIT ${BATCH}`,
        [runId, after],
      );
      if (rows.length <= 1) break;
      for (const row of rows.slice(0, -1)) {
        if (head.outputBytes <= limit) break;
        dropped.push(row.id);
        head.outputBytes -= toNumber(row.bytes);
        head.droppedBytes += toNumber(row.bytes);
        head.droppedThrough = Math.max(head.droppedThrough, row.id);
        after = row.id;
      }
    }
    if (dropped.length) await client.query('DELETE FROM run_events WHERE run_id = $1 AND id = ANY($2::int[])', [runId, dropped]);
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
    return rows[0] ? toHead(rows[0]) : { lastId: 0, outputBytes: 0, droppedThrough: 0, droppedBytes: 0, runVersion: '' };
  }
}
