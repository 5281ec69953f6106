import type Database from 'better-sqlite3';
import type { RunTokenRecords, StoredRunToken } from '../../domain/run-tokens.js';
import { sqliteDialect } from '../sql-dialect.js';
import { insertStatement, rowReader, selectList, type Row } from '../table-description.js';
import { RUN_TOKENS_TABLE } from './run-token-table.js';

const insert = insertStatement(RUN_TOKENS_TABLE, sqliteDialect);
const COLUMNS = selectList(RUN_TOKENS_TABLE);
const read = rowReader(RUN_TOKENS_TABLE);

/** Run tokens' digests in the SQLite file: the run's earlier token goes as its new one is kept. */
export class SqliteRunTokenStore implements RunTokenRecords {
  private readonly replace: (token: StoredRunToken) => void;

  constructor(private readonly db: Database.Database) {
    this.replace = db.transaction((token: StoredRunToken) => {
      db.prepare('DELETE FROM run_tokens WHERE run_id = ?').run(token.runId);
      db.prepare(insert.sql).run(...insert.values(token));
    });
  }

  async put(token: StoredRunToken): Promise<void> {
    this.replace(token);
  }

  async get(digest: string): Promise<StoredRunToken | undefined> {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM run_tokens WHERE digest = ?`).get(digest) as Row | undefined;
    return row ? read(row) : undefined;
  }

  async deleteRun(runId: string): Promise<void> {
    this.db.prepare('DELETE FROM run_tokens WHERE run_id = ?').run(runId);
  }
}
