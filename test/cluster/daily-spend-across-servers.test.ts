import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';
import { spendingClaude, withHarnessKey } from '../../packages/server/test/support/spending-claude.js';
import { writeServerConfig } from '../../packages/server/test/support/server-config.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../support/postgres.js';

const ALICE = { key: 'daily-spend-alice-0123456789', principal: 'alice' };
/** Each message of the stand-in harness: 50,000 input tokens at Sonnet's price. */
const MESSAGE_USD = 0.15;
const CAP_USD = 1;

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): the daily spend across servers is SKIPPED. ***\n');

/**
 * One principal's daily spend cap on two servers sharing a PostgreSQL database, a run
 * spending on each at once: the day's count is the database's, so each server stops its run
 * once the two together reach the cap, and both refuse the next create.
 */
describe.runIf(postgresAdminUrl)('the daily spend cap on two servers sharing a database', () => {
  let db: TestDatabase;
  const servers: RunningServer[] = [];
  const clients: AgentRunsClient[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const configFile = writeServerConfig({ harnesses: { claude: spendingClaude() }, quotas: { default: { spend_per_day_usd: CAP_USD } } });
    for (let i = 0; i < 2; i++) {
      const server = await withHarnessKey(() => startServer({ port: 0, quiet: true, databaseUrl: db.url, apiKeys: [ALICE], concurrency: 1, configFile }));
      servers.push(server);
      clients.push(new AgentRunsClient({ baseURL: server.baseURL, apiKey: ALICE.key, maxRetries: 0 }));
    }
  }, 30_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    await Promise.all(servers.map((s) => s.close()));
    await db?.drop();
  });

  it("holds to within one usage update of each run in progress, counts every update of both once, and both servers refuse the next create", async () => {
    // Twenty messages each would spend $3 apiece; together they reach the cap near the fourth of each.
    const config = { harness: { type: 'claude' as const } };
    const runs = await Promise.all(clients.map((client) => client.runs.create({ prompt: 'MESSAGES=20 TOKENS=50000', config })));
    const ended = await Promise.all(runs.map((run, i) => clients[i]!.runs.wait(run.run_id, { timeout: 45_000 })));
    // Each executed by one server of the two (concurrency 1 each), so both servers held the cap.
    for (const run of ended) {
      expect(run.state, JSON.stringify(run.status_message)).toBe('BLOCKED');
      expect(run.status_message?.message).toContain('spend_per_day_usd 1');
    }
    const spentByRuns = ended.reduce((sum, run) => sum + (run.request_usage?.inference_cost_usd ?? 0), 0);
    const quotas = await Promise.all(clients.map((client) => client.quota.retrieve()));
    // One count, shared: each server answers the same, the sum of what both runs' updates added.
    for (const quota of quotas) expect(quota.spend_today.spent_usd).toBeCloseTo(spentByRuns, 9);
    expect(spentByRuns).toBeGreaterThanOrEqual(CAP_USD);
    // Each run may carry the count past the cap by its own last update (two messages at most) and one message more
    // while its agent was being stopped; unheld, the two would spend $6.
    expect(spentByRuns).toBeLessThanOrEqual(CAP_USD + 2 * 3 * MESSAGE_USD + 1e-9);

    for (const client of clients) {
      const refused = await client.runs.create({ prompt: 'hello' }).catch((error: unknown) => error as { status?: number; message: string });
      expect((refused as { status?: number }).status).toBe(402);
      expect((refused as Error).message).toContain('spend_per_day_usd (1)');
    }
  }, 60_000);
});
