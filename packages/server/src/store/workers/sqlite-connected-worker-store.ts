import type Database from 'better-sqlite3';
import { sqliteDialect } from '../sql-dialect.js';
import { insertStatement, rowReader, selectList, type Row } from '../table-description.js';
import type { ConnectedWorkerRecord, ConnectedWorkerStore } from './connected-worker-store.js';
import { CONNECTED_WORKERS_TABLE, REPLACED } from './connected-worker-table.js';

const upsert = insertStatement(CONNECTED_WORKERS_TABLE, sqliteDialect, `ON CONFLICT (instance_id) DO UPDATE SET ${REPLACED}`);
const COLUMNS = selectList(CONNECTED_WORKERS_TABLE);
const read = rowReader(CONNECTED_WORKERS_TABLE);

export class SqliteConnectedWorkerStore implements ConnectedWorkerStore {
  constructor(private readonly db: Database.Database) {}

  async put(record: ConnectedWorkerRecord): Promise<void> {
    this.db.prepare(upsert.sql).run(...upsert.values(record));
  }

  async get(instanceId: string): Promise<ConnectedWorkerRecord | undefined> {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM connected_workers WHERE instance_id = ?`).get(instanceId) as Row | undefined;
    return row ? read(row) : undefined;
  }

  async heardSince(since: string): Promise<ConnectedWorkerRecord[]> {
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM connected_workers WHERE last_heartbeat_at >= ? ORDER BY worker_host, instance_id`)
      .all(since) as Row[];
    return rows.map(read);
  }
}
