import type { TableDescription } from './table-description.js';

/** The secrets every server of a PostgreSQL database shares, by name (a SQLite store has one server, no cluster). */
export const SHARED_SECRETS_TABLE: TableDescription<never, never> = {
  name: 'shared_secrets',
  only: 'postgres',
  columns: [
    { name: 'name', type: 'text', primaryKey: true },
    { name: 'value', type: 'bytes', notNull: true },
  ],
};
