import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../support/postgres.js';

const KEY = 'cluster-test-key-0123456789';

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): schedules across servers are SKIPPED. ***\n');

describe.runIf(postgresAdminUrl)('a schedule on three servers sharing a database', () => {
  let db: TestDatabase;
  const servers: RunningServer[] = [];
  let client: AgentRunsClient;
  /** One clock for all three, moved by the test; each server looks at it every 20 ms. */
  const clock = { at: new Date('2026-03-02T10:00:30Z'), now() { return new Date(this.at); } };

  beforeAll(async () => {
    db = await createTestDatabase();
    for (let i = 0; i < 3; i++) {
      servers.push(
        await startServer({ port: 0, quiet: true, databaseUrl: db.url, apiKeys: [{ key: KEY, principal: 'team' }], clock, schedulerIntervalMs: 20, simulatedDurationMs: 10 }),
      );
    }
    client = new AgentRunsClient({ baseURL: servers[0]!.baseURL, apiKey: KEY, maxRetries: 0 });
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all(servers.map((s) => s.close()));
    await db?.drop();
  });

  it('fires each tick once in all', async () => {
    const created = await fetch(`${servers[1]!.baseURL}/agent/schedules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'every minute', cron_schedule: '* * * * *', prompt: 'Tick [simulate 10ms]' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const runsOf = async () => (await client.runs.list({ schedule_id: id, limit: 100 })).runs;
    // Five ticks, each given time for all three schedulers to see it.
    for (let minute = 1; minute <= 5; minute++) {
      clock.at = new Date(Date.parse('2026-03-02T10:00:00Z') + minute * 60_000 + 1000);
      await expect.poll(async () => (await runsOf()).length, { timeout: 10_000 }).toBe(minute);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await runsOf()).toHaveLength(5);
  });
});
