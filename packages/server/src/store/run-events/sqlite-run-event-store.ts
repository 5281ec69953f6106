import type Database from 'better-sqlite3';
import { EMPTY_HEAD, toEvent, toHead, type EventRow, type HeadRow } from './event-row.js';
import type { NewRunEvent, RunEventHead, RunEventStore, StoredRunEvent } from './run-event-store.js';
import type { CreatedRunEvent } from '../runs/run-store.js';

/**
 * Writes a new run's first event (id 1) and its log's head, inside the create's transaction:
 * the run and its QUEUED event take one commit. A run id is new, so nothing is there to number after.
 */
export function sqliteFirstRunEvent(db: Database.Database): (runId: string, event: CreatedRunEvent) => void {
  const insert = db.prepare("INSERT INTO run_events (run_id, id, kind, data, bytes) VALUES (?, 1, 'run', ?, 0)");
  const head = db.prepare('INSERT INTO run_event_logs (run_id, last_id, run_version) VALUES (?, 1, ?)');
  return (runId, event) => {
    insert.run(runId, event.data);
    head.run(runId, event.runVersion);
  };
}

/**
 * The event log in the run store's SQLite database (tables of migration 5). Calls are
 * synchronous underneath (one server owns the file), answered as promises to fit the interface.
 */
export class SqliteRunEventStore implements RunEventStore {
  private readonly appendBatch: (events: readonly (NewRunEvent & { runVersion?: string })[], limit: number) => StoredRunEvent[];
  private readonly statements: Record<string, Database.Statement>;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      head: db.prepare('SELECT last_id, output_bytes, dropped_through, dropped_bytes, run_version FROM run_event_logs WHERE run_id = ?'),
      saveHead: db.prepare(
        `INSERT INTO run_event_logs (run_id, last_id, output_bytes, dropped_through, dropped_bytes, run_version)
         VALUES (@runId, @lastId, @outputBytes, @droppedThrough, @droppedBytes, @runVersion)
         ON CONFLICT(run_id) DO UPDATE SET last_id = excluded.last_id, output_bytes = excluded.output_bytes,
           dropped_through = excluded.dropped_through, dropped_bytes = excluded.dropped_bytes, run_version = excluded.run_version`,
      ),
      insert: db.prepare('INSERT INTO run_events (run_id, id, kind, data, bytes) VALUES (?, ?, ?, ?, ?)'),
      oldestOutput: db.prepare("SELECT id, bytes FROM run_events WHERE run_id = ? AND kind = 'output' ORDER BY id LIMIT 64"),
      deleteOne: db.prepare('DELETE FROM run_events WHERE run_id = ? AND id = ?'),
      after: db.prepare('SELECT run_id, id, kind, data FROM run_events WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?'),
      outputAfter: db.prepare(
        "SELECT run_id, id, kind, data FROM run_events WHERE run_id = ? AND id > ? AND kind = 'output' ORDER BY id LIMIT ?",
      ),
      latestRun: db.prepare(
        "SELECT run_id, id, kind, data FROM run_events WHERE run_id = ? AND kind = 'run' ORDER BY id DESC LIMIT 1",
      ),
      newestOutput: db.prepare(
        "SELECT run_id, id, kind, data, bytes FROM run_events WHERE run_id = ? AND id <= ? AND kind = 'output' ORDER BY id DESC LIMIT 64",
      ),
    };
    this.appendBatch = db.transaction((events, limit) => this.appendNow(events, limit));
  }

  async append(events: readonly (NewRunEvent & { runVersion?: string })[], outputLimitBytes: number): Promise<StoredRunEvent[]> {
    return events.length ? this.appendBatch(events, outputLimitBytes) : [];
  }

  private appendNow(events: readonly (NewRunEvent & { runVersion?: string })[], limit: number): StoredRunEvent[] {
    const heads = new Map<string, RunEventHead>();
    const stored: StoredRunEvent[] = [];
    for (const event of events) {
      let head = heads.get(event.runId);
      if (!head) heads.set(event.runId, (head = this.readHead(event.runId)));
      // The run as the log already shows it last: kept once.
      if (event.runVersion !== undefined && event.runVersion === head.runVersion) continue;
      head.lastId += 1;
      head.outputBytes += event.bytes;
      if (event.runVersion !== undefined) head.runVersion = event.runVersion;
      this.statements.insert!.run(event.runId, head.lastId, event.kind, event.data, event.bytes);
      stored.push({ runId: event.runId, id: head.lastId, kind: event.kind, data: event.data });
    }
    for (const [runId, head] of heads) {
      this.dropOldest(runId, head, limit);
      this.statements.saveHead!.run({ runId, ...head });
    }
    return stored;
  }

  /** Deletes the oldest output until what is kept fits the bound (the newest chunk always stays). */
  private dropOldest(runId: string, head: RunEventHead, limit: number): void {
    while (head.outputBytes > limit) {
      const rows = this.statements.oldestOutput!.all(runId) as { id: number; bytes: number }[];
      if (rows.length <= 1) return;
      for (const row of rows.slice(0, -1)) {
        if (head.outputBytes <= limit) return;
        this.statements.deleteOne!.run(runId, row.id);
        head.outputBytes -= row.bytes;
        head.droppedBytes += row.bytes;
        head.droppedThrough = Math.max(head.droppedThrough, row.id);
      }
    }
  }

  async after(runId: string, afterId: number, limit: number, outputOnly = false): Promise<StoredRunEvent[]> {
    const statement = outputOnly ? this.statements.outputAfter! : this.statements.after!;
    return (statement.all(runId, afterId, limit) as EventRow[]).map(toEvent);
  }

  async outputTail(runId: string, throughId: number, maxBytes: number): Promise<StoredRunEvent[]> {
    const picked: StoredRunEvent[] = [];
    let bytes = 0;
    let before = throughId;
    while (bytes < maxBytes) {
      const rows = this.statements.newestOutput!.all(runId, before) as (EventRow & { bytes: number })[];
      if (rows.length === 0) break;
      for (const row of rows) {
        picked.push(toEvent(row));
        bytes += row.bytes;
        if (bytes >= maxBytes) break;
      }
      before = rows.at(-1)!.id - 1;
    }
    return picked.reverse();
  }

  async latestRunEvent(runId: string): Promise<StoredRunEvent | undefined> {
    const row = this.statements.latestRun!.get(runId) as EventRow | undefined;
    return row ? toEvent(row) : undefined;
  }

  async head(runId: string): Promise<RunEventHead> {
    return this.readHead(runId);
  }

  private readHead(runId: string): RunEventHead {
    const row = this.statements.head!.get(runId) as HeadRow | undefined;
    return row ? toHead(row) : { ...EMPTY_HEAD };
  }
}
