import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL the tests use: `AGENT_RUNS_TEST_DATABASE_URL` names a server where the
 * tests may create databases (the test set-up starts a throwaway one when it can).
 */
export const postgresAdminUrl: string | undefined = process.env.AGENT_RUNS_TEST_DATABASE_URL || undefined;

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database of its own for one test file or server. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!postgresAdminUrl) throw new Error('AGENT_RUNS_TEST_DATABASE_URL is not set: no PostgreSQL to test on.');
  const name = `agent_runs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
