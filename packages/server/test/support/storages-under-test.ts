import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../../test/support/postgres.js';
import { openPostgresStorage } from '../../src/store/open-postgres-storage.js';
import { openSqliteStorage } from '../../src/store/open-sqlite-storage.js';
import type { Storage } from '../../src/store/storage.js';

export interface StorageUnderTest {
  name: string;
  /** False for PostgreSQL where no server is given (AGENT_RUNS_TEST_DATABASE_URL). */
  enabled: boolean;
  open(): Promise<Storage>;
}

/**
 * SQLite in memory and PostgreSQL on a database made for the calling test file (dropped after
 * it), for `describe.each`: each `open()` is a new storage, on the same PostgreSQL database.
 */
export function storagesUnderTest(): StorageUnderTest[] {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    if (postgresAdminUrl) database = await createTestDatabase();
  }, 30_000);
  afterAll(async () => {
    await database?.drop();
  });
  return [
    { name: 'SQLite', enabled: true, open: async () => openSqliteStorage(':memory:') },
    { name: 'PostgreSQL', enabled: postgresAdminUrl !== undefined, open: () => openPostgresStorage(database!.url, { log: () => undefined, serverId: 'server-a' }) },
  ];
}
