import { closeSync, existsSync, openSync } from 'node:fs';
import { ServerConfigError } from '../domain/server-config-error.js';
import { SqliteRunStore } from './runs/sqlite-run-store.js';

/**
 * Opens the SQLite store and checks it can be written, before anything relies on it. A
 * new database file is made readable by this user only: it holds prompts and outputs.
 * A file that cannot be opened or written is named in a ServerConfigError.
 */
export function openRunStore(file: string): SqliteRunStore {
  let store: SqliteRunStore | undefined;
  try {
    if (file !== ':memory:' && !existsSync(file)) closeSync(openSync(file, 'a', 0o600));
    store = new SqliteRunStore(file);
    // SQLite opens a file it may not write read-only without a word; a write lock tells.
    if (file !== ':memory:') store.db.exec('BEGIN IMMEDIATE; ROLLBACK');
    return store;
  } catch (error) {
    if (store?.db.open) store.db.close();
    const { code, message } = error as { code?: string; message: string };
    throw new ServerConfigError(
      `The database ${file} cannot be opened for writing (${code ?? 'error'}: ${message}); make the file and its directory writable by this user, or choose another --data-dir.`,
    );
  }
}
