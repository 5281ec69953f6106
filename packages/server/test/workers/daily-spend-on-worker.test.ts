import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

const ALICE = { key: 'alice-worker-spend-0123456789', principal: 'alice' };
const WORKER_TOKEN = 'spend-worker-token-0123456789';
process.env.AGENT_RUNS_TEST_SPEND_WORKER_TOKEN = WORKER_TOKEN;

let t: TestServer;
const call = (path: string, body: unknown, key = WORKER_TOKEN) =>
  t.raw(`/api/v1${path}`, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  t = await startTestServer({
    apiKeys: [ALICE],
    configFile: writeServerConfig({
      quotas: { default: { spend_per_day_usd: 1 } },
      workers: { pool: { token: { from_env: 'AGENT_RUNS_TEST_SPEND_WORKER_TOKEN' }, worker_hosts: ['box'] } },
    }),
  });
});
afterAll(async () => t?.close());

describe('the daily spend cap on a run a self-hosted worker executes', () => {
  it("counts the worker's usage reports, and at the cap ends the run BLOCKED, tells the worker to stop it and refuses its finish", async () => {
    const created = await call('/agent/run', { prompt: 'spend', config: { worker_host: 'box' } }, ALICE.key);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const runId = created.body.run_id as string;
    const connect = { worker_host: 'box', instance_id: 'box-1', version: 'test', capacity: 1, harnesses: [], environments: [] };
    expect((await call('/workers/connect', connect)).status).toBe(200);
    const polled = await call('/workers/poll', { instance_id: 'box-1', free_slots: 1, draining: false, runs: [] });
    const { claim, input } = polled.body.assignments[0];
    const lease = { instance_id: 'box-1', claim };
    const report = (cost: number) => call(`/workers/runs/${runId}/report`, { ...lease, harness_state: { request_usage: { inference_cost_usd: cost, total_tokens: cost * 1000 } } });

    expect((await report(0.4)).status).toBe(204);
    // The same report again (a retry) counts nothing more.
    expect((await report(0.4)).status).toBe(204);
    expect((await t.raw(`/api/v1/agent/runs/${runId}`, { key: ALICE.key })).body.state).toBe('INPROGRESS');
    expect((await report(1.1)).status).toBe(204);

    const run = (await t.raw(`/api/v1/agent/runs/${runId}`, { key: ALICE.key })).body;
    expect(run.state).toBe('BLOCKED');
    expect(run.status_message).toMatchObject({ error_code: 'budget_exceeded', message: expect.stringContaining('spent $1.10 today (UTC) of its quota spend_per_day_usd 1') });
    const quota = (await t.raw('/api/v1/agent/quota', { key: ALICE.key })).body;
    expect(quota.spend_today).toMatchObject({ spent_usd: 1.1, tokens: 1100, limit_usd: 1 });

    const next = await call('/workers/poll', { instance_id: 'box-1', free_slots: 0, draining: false, runs: [{ run_id: runId, claim }] });
    expect(next.body.commands).toContainEqual({ kind: 'cancel', run_id: runId });
    const finished = await call(`/workers/runs/${runId}/finish`, { ...lease, execution: input.number, state: 'CANCELLED' });
    expect(finished.status).toBe(409);
    expect((await t.raw(`/api/v1/agent/runs/${runId}`, { key: ALICE.key })).body.state).toBe('BLOCKED');
  });
});
