import type Database from 'better-sqlite3';
import { metadataRows, RUN_METADATA_TABLE } from './run-metadata-table.js';
import { sqliteDialect } from '../sql-dialect.js';
import { insertStatement } from '../table-description.js';

const INSERT = insertStatement(RUN_METADATA_TABLE, sqliteDialect);

/** A run's metadata, one row per key, so that `metadata[key]=value` filters use an index. */
export class SqliteRunMetadata {
  private readonly insert: Database.Statement;

  constructor(db: Database.Database) {
    this.insert = db.prepare(INSERT.sql);
  }

  /** Call inside the transaction that inserts the run. */
  add(runId: string, metadata: Record<string, string> | undefined): void {
    for (const row of metadataRows(runId, metadata)) this.insert.run(INSERT.values(row));
  }
}
