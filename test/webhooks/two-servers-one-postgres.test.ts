import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startServer, type RunningServer } from '@agent-runs/server';
import { startReceiver, type WebhookReceiver } from '../../packages/server/test/webhooks/webhook-receiver.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../support/postgres.js';
import { startServerChild, type ServerChild } from './server-child.js';

const KEY = { key: 'cluster-webhook-key-0123456789', principal: 'team' };

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): the webhook tests across servers are SKIPPED. ***\n');

async function post(baseURL: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${baseURL}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.json();
}

describe.runIf(postgresAdminUrl)('webhooks from servers sharing one PostgreSQL', () => {
  let db: TestDatabase;
  const servers: RunningServer[] = [];
  let receiver: WebhookReceiver | undefined;
  let child: ServerChild | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    child?.child.kill('SIGKILL');
    await child?.exited;
    for (const server of servers.splice(0)) await server.close();
    await receiver?.close();
  });
  afterAll(async () => {
    await db?.drop();
  });

  const serve = async (extra: Record<string, unknown> = {}) => {
    const server = await startServer({ port: 0, quiet: true, databaseUrl: db.url, apiKeys: [KEY], allowPrivateWebhooks: true, simulatedDurationMs: 50, concurrency: 8, ...extra });
    servers.push(server);
    return server;
  };

  it('delivers each event once per attempt, in order per run, whichever server made the change', async () => {
    receiver = await startReceiver();
    const [a, b] = [await serve(), await serve()];
    const { id } = await post(a.baseURL, '/agent/webhooks', { url: receiver.url, event_types: ['run.created', 'run.state_changed'] });
    const runIds: string[] = [];
    for (let i = 0; i < 20; i++) runIds.push((await post((i % 2 ? a : b).baseURL, '/agent/runs', { prompt: `run ${i}` })).run_id);
    // Each run: created, QUEUED → INPROGRESS, INPROGRESS → SUCCEEDED.
    await expect.poll(() => receiver!.accepted.length, { timeout: 20_000 }).toBe(60);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ids = receiver.received.map((d) => d.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    for (const runId of runIds) {
      const states = receiver.accepted.filter((d) => d.event.data.run_id === runId).map((d) => d.event.data.state);
      expect(states, runId).toEqual(['QUEUED', 'INPROGRESS', 'SUCCEEDED']);
    }
    const log = await fetch(`${b.baseURL}/agent/webhooks/${id}/deliveries?limit=500`, { headers: { authorization: `Bearer ${KEY.key}` } }).then((r) => r.json() as Promise<{ deliveries: any[] }>);
    expect(log.deliveries).toHaveLength(60);
    expect(log.deliveries.every((d: any) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  });

  it('sends a run’s events to a subscription another server enabled just before the run', async () => {
    receiver = await startReceiver();
    const late = await startReceiver();
    const a = await serve();
    // One enabled subscription: the server's cached list of them is then read again only a few times a second.
    await post(a.baseURL, '/agent/webhooks', { url: receiver.url, event_types: ['run.created'] });
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    try {
      for (let i = 0; i < 3; i++) {
        const { id } = await post(a.baseURL, '/agent/webhooks', { url: late.url, event_types: ['run.created'], enabled: false });
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Enabled the way another server's PUT does it: this server is not told.
        await sql.query('UPDATE webhook_subscriptions SET enabled = TRUE WHERE id = $1', [id]);
        const { run_id } = await post(a.baseURL, '/agent/runs', { prompt: `after late subscription ${i}` });
        await expect.poll(() => late.accepted.filter((d) => d.event.data.run_id === run_id).length, { timeout: 10_000 }).toBe(i + 1);
      }
    } finally {
      await sql.end();
      await late.close();
    }
  });

  it('takes over the delivery a dead server held once its lease runs out', async () => {
    let answering = false;
    receiver = await startReceiver(() => (answering ? { status: 200 } : 'hang'));
    child = await startServerChild({ databaseUrl: db.url, apiKeys: [KEY], allowPrivateWebhooks: true, simulatedDurationMs: 60_000, webhookLeaseMs: 1500 });
    await post(child.baseURL, '/agent/webhooks', { url: receiver.url, event_types: ['run.created'] });
    await post(child.baseURL, '/agent/runs', { prompt: 'held by the dead' });
    await expect.poll(() => receiver!.received.length, { timeout: 10_000 }).toBe(1);
    child.child.kill('SIGKILL');
    await child.exited;
    child = undefined;
    answering = true;
    await serve({ webhookLeaseMs: 1500 });
    await expect.poll(() => receiver!.accepted.length, { timeout: 10_000 }).toBe(1);
    expect(receiver.accepted[0]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
  });
});
