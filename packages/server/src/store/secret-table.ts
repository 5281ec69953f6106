import { postgresDialect } from './sql-dialect.js';
import { insertStatement, rowReader, selectList, type TableDescription } from './table-description.js';

/** One shared secret. */
export interface SharedSecret {
  name: string;
  value: Buffer;
}

/** The secrets every server of a PostgreSQL database shares, by name (a SQLite store has one server, no cluster). */
export const SHARED_SECRETS_TABLE: TableDescription<SharedSecret, SharedSecret> = {
  name: 'shared_secrets',
  only: 'postgres',
  columns: [
    { name: 'name', type: 'text', primaryKey: true, write: (s) => s.name, read: 'name' },
    { name: 'value', type: 'bytes', notNull: true, write: (s) => s.value, read: 'value' },
  ],
};

/** The first server to ask makes the secret; a secret made before stays. */
export const INSERT_SECRET = insertStatement(SHARED_SECRETS_TABLE, postgresDialect, 'ON CONFLICT DO NOTHING');
export const SELECT_SECRET = `SELECT ${selectList(SHARED_SECRETS_TABLE)} FROM shared_secrets WHERE name = $1`;
export const readSecret = rowReader(SHARED_SECRETS_TABLE);
