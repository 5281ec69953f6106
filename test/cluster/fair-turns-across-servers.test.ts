import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectNextAfterAnothersLongLine } from '../support/fair-turns.js';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../support/postgres.js';

/**
 * Fair turns on two servers sharing a PostgreSQL database, each running one run at a time:
 * principal A queues 200 runs through one, B creates one through the other; B's is the next
 * run either server starts. The turns are the database's, so both servers agree on them.
 */
const KEYS = [
  { key: 'fair-turns-a-0123456789', principal: 'a' },
  { key: 'fair-turns-b-0123456789', principal: 'b' },
];

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): fair turns across servers are SKIPPED. ***\n');

describe.runIf(postgresAdminUrl)('fair turns on two servers sharing a database', () => {
  let db: TestDatabase;
  const servers: RunningServer[] = [];
  let a: AgentRunsClient;
  let b: AgentRunsClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    for (let i = 0; i < 2; i++) servers.push(await startServer({ port: 0, quiet: true, databaseUrl: db.url, apiKeys: KEYS, concurrency: 1, simulatedDurationMs: 150 }));
    a = new AgentRunsClient({ baseURL: servers[0]!.baseURL, apiKey: KEYS[0]!.key, maxRetries: 0 });
    b = new AgentRunsClient({ baseURL: servers[1]!.baseURL, apiKey: KEYS[1]!.key, maxRetries: 0 });
  }, 30_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await Promise.all(servers.map((s) => s.close()));
    await db?.drop();
  });

  it("starts B's run at the next free slot of either server while A has 200 in line", async () => {
    await expectNextAfterAnothersLongLine(a, b);
  }, 40_000);
});
