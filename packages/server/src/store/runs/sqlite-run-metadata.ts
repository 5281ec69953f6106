import type Database from 'better-sqlite3';

/** A run's metadata, one row per key, so that `metadata[key]=value` filters use an index. */
export class SqliteRunMetadata {
  private readonly insert: Database.Statement;

  constructor(db: Database.Database) {
    this.insert = db.prepare('INSERT INTO run_metadata (run_id, key, value) VALUES (?, ?, ?)');
  }

  /** Call inside the transaction that inserts the run. */
  add(runId: string, metadata: Record<string, string> | undefined): void {
    for (const [key, value] of Object.entries(metadata ?? {})) this.insert.run(runId, key, value);
  }
}
