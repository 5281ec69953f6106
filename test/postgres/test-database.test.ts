import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../support/postgres.js';

// The global set-up (test/support/postgres-global-setup.ts) sets the URL in vitest's main
// process; these pin that it reaches the forked test workers and that tests can use it.
const required = process.env.AGENT_RUNS_REQUIRE_POSTGRES === '1';
if (!postgresAdminUrl) {
  console.warn('test/postgres/test-database.test.ts: SKIPPED, AGENT_RUNS_TEST_DATABASE_URL is not set (no PostgreSQL for the tests).');
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe("the tests' PostgreSQL", () => {
  it.runIf(required)('reaches the test workers when AGENT_RUNS_REQUIRE_POSTGRES=1', () => {
    expect(postgresAdminUrl).toMatch(/^postgres(ql)?:\/\//);
  });

  describe.skipIf(!postgresAdminUrl)('createTestDatabase()', () => {
    const made: TestDatabase[] = [];
    afterAll(async () => {
      for (const database of made) await database.drop();
    });

    it('makes an empty database of its own that a test can write and read', async () => {
      const database = await createTestDatabase();
      made.push(database);
      expect(new URL(database.url).pathname).not.toBe(new URL(postgresAdminUrl!).pathname);
      const tables = await query(database.url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
      expect(tables).toEqual([]);
      await query(database.url, 'CREATE TABLE t (v text)');
      await query(database.url, 'INSERT INTO t VALUES ($1)', ['kept']);
      expect(await query(database.url, 'SELECT v FROM t')).toEqual([{ v: 'kept' }]);
    });

    it('gives each call a different database, and drop() removes it even with a connection open', async () => {
      const first = await createTestDatabase();
      const second = await createTestDatabase();
      made.push(second);
      expect(first.url).not.toBe(second.url);
      const name = new URL(first.url).pathname.slice(1);
      const open = new pg.Client({ connectionString: first.url });
      open.on('error', () => {}); // FORCE ends this connection from the server's side
      await open.connect();
      await first.drop();
      await open.end().catch(() => {});
      const left = await query(postgresAdminUrl!, 'SELECT datname FROM pg_database WHERE datname = $1', [name]);
      expect(left).toEqual([]);
    });
  });
});
