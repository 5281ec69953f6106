import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

const TOKEN = 'metrics-worker-token-0123456789';
const METRICS_TOKEN = 'metrics-scrape-token-0123456789';
process.env.AGENT_RUNS_TEST_METRICS_WORKER_TOKEN = TOKEN;
process.env.AGENT_RUNS_TEST_METRICS_TOKEN = METRICS_TOKEN;

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(config: Record<string, unknown> = {}, options = {}): Promise<TestServer> {
  const configFile = writeServerConfig({ workers: { pool: { token: { from_env: 'AGENT_RUNS_TEST_METRICS_WORKER_TOKEN' }, worker_hosts: ['gpu'] } }, ...config });
  const s = await startTestServer({ configFile, ...options });
  servers.push(s);
  return s;
}

const metrics = async (base: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

/** A non-loopback address of this machine, if it has one. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('GET /metrics', () => {
  it('shows the queue per worker id, the workers connected and their free slots, in Prometheus text', async () => {
    const s = await server();
    for (const config of [{ worker_host: 'gpu' }, { worker_host: 'gpu' }]) {
      const res = await s.raw('/api/v1/agent/runs', { method: 'POST', body: JSON.stringify({ prompt: 'wait for a worker', config }), headers: { 'content-type': 'application/json' } });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }
    const before = await metrics(s.server.url);
    expect(before.status).toBe(200);
    expect(before.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(before.text).toMatch(/^agent_runs_queued_runs\{worker_host="gpu"\} 2$/m);
    expect(before.text).not.toMatch(/^agent_runs_workers_connected\{/m);

    const connect = await fetch(`${s.server.url}/api/v1/workers/connect`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ worker_host: 'gpu', instance_id: 'm1', version: 'test', capacity: 3, harnesses: [], environments: [] }),
    });
    expect(connect.status).toBe(200);
    const after = await metrics(s.server.url);
    expect(after.text).toMatch(/^agent_runs_workers_connected\{worker_host="gpu"\} 1$/m);
    expect(after.text).toMatch(/^agent_runs_worker_free_slots\{worker_host="gpu"\} 3$/m);
    expect(after.text).toMatch(/^# TYPE agent_runs_worker_leases_lost_total counter$/m);
  });

  it('counts a worker lease that ran out, by worker id', async () => {
    const s = await server({}, { leaseMs: 300 });
    const send = (path: string, body: unknown) =>
      fetch(`${s.server.url}/api/v1/workers/${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await send('connect', { worker_host: 'gpu', instance_id: 'm2', version: 'test', capacity: 1, harnesses: [], environments: [] })).status).toBe(200);
    await s.raw('/api/v1/agent/runs', { method: 'POST', body: JSON.stringify({ prompt: 'lost', config: { worker_host: 'gpu' } }), headers: { 'content-type': 'application/json' } });
    const polled = (await (await send('poll', { instance_id: 'm2', free_slots: 1, draining: false, runs: [] })).json()) as { assignments: unknown[] };
    expect(polled.assignments).toHaveLength(1);
    // The worker goes quiet: its lease runs out and the run is failed for it.
    await eventually(async () => (await metrics(s.server.url)).text, (text) => /^agent_runs_worker_leases_lost_total\{worker_host="gpu"\} 1$/m.test(text), 10_000);
  });

  it('counts the runs created while every connected slot of their worker id was taken', async () => {
    const s = await server();
    const send = (path: string, body: unknown) =>
      fetch(`${s.server.url}/api/v1/workers/${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const create = async () => {
      const res = await s.raw('/api/v1/agent/runs', { method: 'POST', body: JSON.stringify({ prompt: 'busy', config: { worker_host: 'gpu' } }), headers: { 'content-type': 'application/json' } });
      expect(res.status).toBeLessThan(300);
    };
    // None connected: the run waits for one to connect, which is not a full pool.
    await create();
    expect((await metrics(s.server.url)).text).not.toMatch(/^agent_runs_worker_at_capacity_total\{/m);
    expect((await send('connect', { worker_host: 'gpu', instance_id: 'm3', version: 'test', capacity: 1, harnesses: [], environments: [] })).status).toBe(200);
    const polled = (await (await send('poll', { instance_id: 'm3', free_slots: 1, draining: false, runs: [] })).json()) as { assignments: { claim: string; run: { id: string } }[] };
    expect(polled.assignments).toHaveLength(1);
    // Its one slot is taken (its next poll says so): the next run waits for a slot.
    const held = polled.assignments.map((a) => ({ run_id: a.run.id, claim: a.claim }));
    const next = send('poll', { instance_id: 'm3', free_slots: 0, draining: false, runs: held });
    await eventually(
      async () => (await s.raw('/api/v1/agent/connected-self-hosted-workers')).body,
      (body) => body.workers?.[0]?.running_runs === 1,
      5000,
    );
    await create();
    await create();
    expect((await metrics(s.server.url)).text).toMatch(/^agent_runs_worker_at_capacity_total\{worker_host="gpu"\} 2$/m);
    await next;
  });

  it('with metrics_token, takes that token and nothing else', async () => {
    const s = await server({ metrics_token: { from_env: 'AGENT_RUNS_TEST_METRICS_TOKEN' } });
    expect((await metrics(s.server.url)).status).toBe(401);
    expect((await metrics(s.server.url, { authorization: `Bearer ${TOKEN}` })).status).toBe(401);
    const ok = await metrics(s.server.url, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.text).toMatch(/^# HELP agent_runs_queued_runs /m);
  });

  it.runIf(external)('without metrics_token, answers this machine only', async () => {
    const s = await server({}, { host: '0.0.0.0', allowedHosts: [`${external}`], apiKeys: [{ key: 'metrics-test-key-0123456789', principal: 'local' }] });
    const port = new URL(s.server.url).port;
    const far = await metrics(`http://${external}:${port}`);
    expect(far.status).toBe(403);
    expect(far.text).toMatch(/metrics_token/);
    expect(far.text).not.toMatch(/agent_runs_queued_runs/);
  });
});
