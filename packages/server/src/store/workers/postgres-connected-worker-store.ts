import type pg from 'pg';
import { postgresDialect } from '../sql-dialect.js';
import { insertStatement, rowReader, selectList, type Row } from '../table-description.js';
import type { ConnectedWorkerRecord, ConnectedWorkerStore } from './connected-worker-store.js';
import { CONNECTED_WORKERS_TABLE, REPLACED } from './connected-worker-table.js';

const upsert = insertStatement(CONNECTED_WORKERS_TABLE, postgresDialect, `ON CONFLICT (instance_id) DO UPDATE SET ${REPLACED}`);
const COLUMNS = selectList(CONNECTED_WORKERS_TABLE);
const read = rowReader(CONNECTED_WORKERS_TABLE);

export class PostgresConnectedWorkerStore implements ConnectedWorkerStore {
  constructor(private readonly pool: pg.Pool) {}

  async put(record: ConnectedWorkerRecord): Promise<void> {
    await this.pool.query(upsert.sql, upsert.values(record));
  }

  async get(instanceId: string): Promise<ConnectedWorkerRecord | undefined> {
    const { rows } = await this.pool.query<Row>(`SELECT ${COLUMNS} FROM connected_workers WHERE instance_id = $1`, [instanceId]);
    return rows[0] ? read(rows[0]) : undefined;
  }

  async heardSince(since: string): Promise<ConnectedWorkerRecord[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM connected_workers WHERE last_heartbeat_at >= $1 ORDER BY worker_host, instance_id`,
      [since],
    );
    return rows.map(read);
  }
}
