import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';
import { writeAgentScript } from '../support/command-agent.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../support/postgres.js';

const KEY = 'cluster-run-token-key-0123456789';

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): the run token across servers is SKIPPED. ***\n');

/**
 * A run token minted by the server that executes the run is honoured by another server of the
 * same PostgreSQL database (its SHA-256 is in the run_tokens table), until the run ends.
 */
describe.runIf(postgresAdminUrl)('a run token across two servers', () => {
  let db: TestDatabase;
  const started: RunningServer[] = [];
  /** The agent leaves its token here, as <run id>.token, for the test to use as the agent would. */
  const tokens = mkdtempSync(join(tmpdir(), 'agent-runs-tokens-'));
  chmodSync(tokens, 0o777); // Written by the agent user of a root server.

  const serve = async (command?: string) => {
    const server = await startServer({ port: 0, quiet: true, databaseUrl: db.url, apiKeys: [{ key: KEY, principal: 'team' }], concurrency: 2, sandbox: 'off', ...(command ? { command } : { workersOnly: true }) }); // The agent's token file is read from outside its sandbox.
    started.push(server);
    return { server, client: new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 }) };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  }, 30_000);
  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
    await db?.drop();
  });

  it('is honoured by the other server while its run runs, and refused there once it ended', async () => {
    const agent = writeAgentScript(`printf %s "$AGENT_RUNS_RUN_TOKEN" > '${tokens}'/"$AGENT_RUNS_RUN_ID.token"; sleep 60`);
    const a = await serve(agent.command);
    // B executes nothing (all runs go to workers, and none is connected): every run here is A's.
    const b = await serve();
    const { run_id: runId } = await a.client.runs.create({ prompt: 'fan out' });
    const token = await expect
      .poll(() => {
        try {
          return readFileSync(join(tokens, `${runId}.token`), 'utf8');
        } catch {
          return '';
        }
      }, { timeout: 10_000 })
      .toMatch(/^art_/)
      .then(() => readFileSync(join(tokens, `${runId}.token`), 'utf8'));

    const onB = (path: string, init: RequestInit = {}) =>
      fetch(`${b.server.baseURL}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });
    const own = await onB(`/agent/runs/${runId}`);
    expect(own.status).toBe(200);
    const created = await onB('/agent/runs', { method: 'POST', body: JSON.stringify({ prompt: 'Part one' }) });
    expect(created.status).toBe(200);
    const child = (await created.json()) as { run_id: string };
    expect((await b.client.runs.get(child.run_id)).parent_run_id).toBe(runId);
    // Outside its scope on B as on A.
    expect((await onB('/agent/runs')).status).toBe(403);

    await a.client.runs.cancel(runId);
    await expect.poll(async () => (await b.client.runs.get(runId)).state, { timeout: 10_000 }).toBe('CANCELLED');
    await expect.poll(async () => (await onB(`/agent/runs/${runId}`)).status, { timeout: 10_000 }).toBe(401);
    // Its row is gone with it, and no row ever held the token itself.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ digest: string }>('SELECT digest FROM run_tokens');
      expect(rows.map((r) => r.digest)).not.toContain(createHash('sha256').update(token).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(token);
    } finally {
      await client.end();
    }
  }, 60_000);
});
