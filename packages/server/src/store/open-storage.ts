import { join } from 'node:path';
import { openSqliteStorage } from './open-sqlite-storage.js';
import type { Storage } from './storage.js';

export interface StorageChoice {
  /** PostgreSQL, shared by any number of servers; otherwise SQLite. */
  databaseUrl: string | undefined;
  /** SQLite's directory; none keeps SQLite in memory. */
  dataDir: string | undefined;
  /** This server's id among those sharing a database. */
  serverId: string;
  log: (line: string) => void;
}

/** The server's storage: PostgreSQL when a database URL is given, else SQLite in the data directory or in memory. */
export async function openStorage(choice: StorageChoice): Promise<Storage> {
  if (choice.databaseUrl) {
    // Loaded only when asked for: the SQLite default never loads the PostgreSQL driver.
    const { openPostgresStorage } = await import('./open-postgres-storage.js');
    return openPostgresStorage(choice.databaseUrl, { log: choice.log, serverId: choice.serverId });
  }
  return openSqliteStorage(choice.dataDir ? join(choice.dataDir, 'runs.sqlite') : ':memory:');
}
