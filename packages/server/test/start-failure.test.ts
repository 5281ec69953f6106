import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../test/support/postgres.js';

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): the start-failure test is SKIPPED. ***\n');

describe.runIf(postgresAdminUrl)('a server that fails to start after opening its database', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('closes every connection it opened, so an embedding process is not kept alive', async () => {
    // The skill cache is made under the temp directory after the database is open: make that fail.
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = '/nonexistent-agent-runs-tmp';
    try {
      await expect(startServer({ port: 0, quiet: true, databaseUrl: db.url, apiKeys: [{ key: 'start-failure-key-123', principal: 'p' }] })).rejects.toThrow(
        /nonexistent-agent-runs-tmp/,
      );
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const open = async () =>
        Number(
          (await admin.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'agent-runs-server%'"))
            .rows[0]!.n,
        );
      await expect.poll(open, { timeout: 5000 }).toBe(0);
    } finally {
      await admin.end();
    }
  });
});
