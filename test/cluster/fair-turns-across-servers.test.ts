import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push((await a.runs.create({ prompt: `A ${i}` })).run_id);
    const mine = await b.runs.create({ prompt: 'B' });
    const run = await b.runs.wait(mine.run_id, { timeout: 15_000 });
    expect(run.state).toBe('SUCCEEDED');
    const aRuns = [];
    for await (const r of a.runs.list({ limit: 100 })) aRuns.push(r);
    expect(aRuns).toHaveLength(200);
    const between = aRuns.filter((r) => r.started_at && r.started_at > run.created_at && r.started_at < run.started_at!);
    expect(between.map((r) => r.title)).toEqual([]);
    expect(aRuns.filter((r) => r.state === 'QUEUED').length).toBeGreaterThan(150);
    for (const id of ids) await a.runs.cancel(id).catch(() => undefined);
  }, 40_000);
});
