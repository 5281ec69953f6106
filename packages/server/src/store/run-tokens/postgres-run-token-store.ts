import type pg from 'pg';
import type { RunTokenRecords, StoredRunToken } from '../../domain/run-tokens.js';
import { inTransaction } from '../postgres-transaction.js';
import { postgresDialect } from '../sql-dialect.js';
import { insertStatement, rowReader, selectList, type Row } from '../table-description.js';
import { RUN_TOKENS_TABLE } from './run-token-table.js';

const insert = insertStatement(RUN_TOKENS_TABLE, postgresDialect);
const COLUMNS = selectList(RUN_TOKENS_TABLE);
const read = rowReader(RUN_TOKENS_TABLE);

/** Run tokens' digests in PostgreSQL, read by every server of the database on a token it did not mint. */
export class PostgresRunTokenStore implements RunTokenRecords {
  constructor(private readonly pool: pg.Pool) {}

  async put(token: StoredRunToken): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM run_tokens WHERE run_id = $1', [token.runId]);
      await client.query(insert.sql, insert.values(token));
    });
  }

  async get(digest: string): Promise<StoredRunToken | undefined> {
    const { rows } = await this.pool.query<Row>(`SELECT ${COLUMNS} FROM run_tokens WHERE digest = $1`, [digest]);
    return rows[0] ? read(rows[0]) : undefined;
  }

  async deleteRun(runId: string): Promise<void> {
    await this.pool.query('DELETE FROM run_tokens WHERE run_id = $1', [runId]);
  }
}
