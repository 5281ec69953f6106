import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '@agent-runs/core/webhooks';
import { eventually } from '../support/eventually.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { startReceiver, type ReceivedWebhook, type WebhookReceiver } from './webhook-receiver.js';

const KEYS = [
  { key: 'alice-key-0123456789', principal: 'alice' },
  { key: 'bob-key-0123456789', principal: 'bob' },
];

let t: TestServer | undefined;
const receivers: WebhookReceiver[] = [];

afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const r of receivers.splice(0)) await r.close();
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<WebhookReceiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

/** The reference library checks the delivery. */
function verified(secret: string, delivery: ReceivedWebhook): unknown {
  return new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
}

async function subscribe(body: Record<string, unknown>, key = KEYS[0]!.key): Promise<{ id: string; secret: string }> {
  const res = await t!.raw('/api/v1/agent/webhooks', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.secret).toMatch(/^whsec_/);
  return res.body;
}

async function createRun(prompt: string, key = KEYS[0]!.key): Promise<string> {
  const res = await t!.raw('/api/v1/agent/runs', { method: 'POST', body: JSON.stringify({ prompt }), headers: { 'content-type': 'application/json' }, key });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.run_id;
}

describe('webhooks', () => {
  it("sends a run's change as soon as it is stored, not at the next poll of the outbox", async () => {
    // A poll a minute apart: only the change itself can start the delivery within the wait below.
    t = await startTestServer({ apiKeys: KEYS, allowPrivateWebhooks: true, webhookPollMs: 60_000 });
    const r = await receiver();
    await subscribe({ url: r.url, event_types: ['run.succeeded'] });
    // The idle check (1 s) has come and gone before the run, so the next poll is a minute away.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const runId = await createRun('hello');
    await eventually(() => r.accepted.map((d) => d.event.data.run_id), (ids) => ids.includes(runId), 5000);
  });

  it('delivers every change of a run, in order, signed so the standardwebhooks library verifies it', async () => {
    t = await startTestServer({ apiKeys: KEYS, allowPrivateWebhooks: true });
    const r = await receiver();
    const { secret } = await subscribe({ url: r.url });
    const runId = await createRun('hello');
    await eventually(() => r.accepted.map((d) => d.event.type), (types) => types.includes('run.succeeded'));
    const mine = r.accepted.filter((d) => d.event.data.run_id === runId);
    expect(mine.map((d) => [d.event.type, d.event.data.previous_state ?? null, d.event.data.state])).toEqual([
      ['run.created', null, 'QUEUED'],
      ['run.state_changed', 'QUEUED', 'INPROGRESS'],
      ['run.state_changed', 'INPROGRESS', 'SUCCEEDED'],
      ['run.succeeded', 'INPROGRESS', 'SUCCEEDED'],
    ]);
    for (const delivery of mine) {
      expect(verified(secret, delivery)).toEqual(delivery.event);
      expect(verifyWebhook(delivery.body, delivery.headers as Record<string, string>, secret)).toEqual(delivery.event);
      expect(delivery.headers['webhook-id']).toMatch(/^msg_/);
    }
    // The run as GET answers it, at that change.
    const run = (await t.raw(`/api/v1/agent/runs/${runId}`, { key: KEYS[0]!.key })).body;
    expect(mine.at(-1)!.event.data).toMatchObject({ run_id: runId, title: run.title, prompt: 'hello', state: 'SUCCEEDED', session_link: run.session_link });
    expect(new Set(mine.map((d) => d.headers['webhook-id'])).size).toBe(4);
  });

  it('sends an event the receiver failed twice a third time with the same webhook-id', async () => {
    t = await startTestServer({ apiKeys: KEYS, allowPrivateWebhooks: true, webhookRetryDelaysMs: [50, 50, 50] });
    const failures = new Map<string, number>();
    const r = await receiver((request) => {
      const id = String(request.headers['webhook-id']);
      const seen = failures.get(id) ?? 0;
      failures.set(id, seen + 1);
      return seen < 2 ? { status: 503 } : { status: 200 };
    });
    const { id } = await subscribe({ url: r.url, event_types: ['run.created'] });
    const runId = await createRun('retry me');
    await eventually(() => r.accepted.length, (n) => n === 1);
    const attempts = r.received.filter((d) => d.event.data.run_id === runId);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((d) => d.headers['webhook-id'])).size).toBe(1);
    // The receiver has answered; the attempt is recorded just after, so the log is read until it shows it.
    const log = await eventually(
      async () => (await t!.raw(`/api/v1/agent/webhooks/${id}/deliveries`, { key: KEYS[0]!.key })).body.deliveries,
      (d: any[]) => d[0]?.status !== 'pending',
    );
    expect(log[0]).toMatchObject({ status: 'delivered', attempts: 3, last_response_status: 200, event_type: 'run.created' });
  });

  it('honours Retry-After, and gives up once the schedule is spent', async () => {
    t = await startTestServer({ apiKeys: KEYS, allowPrivateWebhooks: true, webhookRetryDelaysMs: [10] });
    const r = await receiver(() => ({ status: 429, headers: { 'retry-after': '1' }, body: 'slow down' }));
    const { id } = await subscribe({ url: r.url, event_types: ['run.created'] });
    await createRun('busy receiver');
    await eventually(() => r.received.length, (n) => n === 2, 5000);
    // The schedule said 10 ms; the receiver asked for a second.
    expect(r.received[1]!.at - r.received[0]!.at).toBeGreaterThanOrEqual(950);
    const log = await eventually(
      async () => (await t!.raw(`/api/v1/agent/webhooks/${id}/deliveries`, { key: KEYS[0]!.key })).body.deliveries,
      (d: any[]) => d[0]?.status === 'failed',
    );
    expect(log[0]).toMatchObject({ attempts: 2, last_response_status: 429, last_response_body: 'slow down', next_attempt_at: null });
  });

  it('disables a subscription whose receiver answers 410 Gone', async () => {
    t = await startTestServer({ apiKeys: KEYS, allowPrivateWebhooks: true });
    const r = await receiver(() => ({ status: 410 }));
    const { id } = await subscribe({ url: r.url, event_types: ['run.created'] });
    await createRun('gone');
    const hook = await eventually(async () => (await t!.raw(`/api/v1/agent/webhooks/${id}`, { key: KEYS[0]!.key })).body, (h) => h.enabled === false);
    expect(hook.disabled_reason).toMatch(/410/);
    await createRun('not sent');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(1);
  });

  it('signs with both secrets during a rotation overlap, and with the new one alone after', async () => {
    t = await startTestServer({ apiKeys: KEYS, allowPrivateWebhooks: true });
    const r = await receiver();
    const { id, secret: old } = await subscribe({ url: r.url, event_types: ['run.created'] });
    const rotated = await t.raw(`/api/v1/agent/webhooks/${id}/rotate-secret`, { method: 'POST', body: '{"overlap_seconds":3600}', headers: { 'content-type': 'application/json' }, key: KEYS[0]!.key });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    await createRun('during overlap');
    await eventually(() => r.accepted.length, (n) => n === 1);
    expect(verified(old, r.accepted[0]!)).toBeTruthy();
    expect(verified(fresh, r.accepted[0]!)).toBeTruthy();
    // No secret is shown again.
    expect((await t.raw(`/api/v1/agent/webhooks/${id}`, { key: KEYS[0]!.key })).body.secret).toBeUndefined();

    await t.raw(`/api/v1/agent/webhooks/${id}/rotate-secret`, { method: 'POST', body: '{"overlap_seconds":0}', headers: { 'content-type': 'application/json' }, key: KEYS[0]!.key }).then((res) => {
      expect(res.status).toBe(200);
      return createRun('after overlap').then(() => eventually(() => r.accepted.length, (n) => n === 2)).then(() => {
        expect(verified(res.body.secret, r.accepted[1]!)).toBeTruthy();
        expect(() => verified(fresh, r.accepted[1]!)).toThrow();
      });
    });
  });

  it('gives each principal only its own runs\' events and its own subscriptions', async () => {
    t = await startTestServer({ apiKeys: KEYS, allowPrivateWebhooks: true });
    const forAlice = await receiver();
    const forBob = await receiver();
    const alice = await subscribe({ url: forAlice.url, event_types: ['run.created'] }, KEYS[0]!.key);
    await subscribe({ url: forBob.url, event_types: ['run.created'] }, KEYS[1]!.key);
    const aliceRun = await createRun('alice', KEYS[0]!.key);
    const bobRun = await createRun('bob', KEYS[1]!.key);
    await eventually(() => forAlice.accepted.length + forBob.accepted.length, (n) => n === 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(forAlice.accepted.map((d) => d.event.data.run_id)).toEqual([aliceRun]);
    expect(forBob.accepted.map((d) => d.event.data.run_id)).toEqual([bobRun]);
    const bobList = (await t.raw('/api/v1/agent/webhooks', { key: KEYS[1]!.key })).body.webhooks;
    expect(bobList).toHaveLength(1);
    expect(bobList[0].id).not.toBe(alice.id);
    expect((await t.raw(`/api/v1/agent/webhooks/${alice.id}`, { key: KEYS[1]!.key })).status).toBe(404);
    expect((await t.raw(`/api/v1/agent/webhooks/${alice.id}`, { method: 'DELETE', key: KEYS[1]!.key })).status).toBe(404);
  });

  it('sends ids only in thin mode, and only the states a filter names', async () => {
    t = await startTestServer({ apiKeys: KEYS, allowPrivateWebhooks: true });
    const r = await receiver();
    await subscribe({ url: r.url, thin: true, event_types: ['run.state_changed'], filter: { states: ['SUCCEEDED'] } });
    const runId = await createRun('thin');
    await eventually(() => r.accepted.length, (n) => n === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.accepted.map((d) => d.event)).toEqual([
      { type: 'run.state_changed', timestamp: expect.any(String), data: { run_id: runId, state: 'SUCCEEDED', previous_state: 'INPROGRESS' } },
    ]);
  });

  it('redelivers a delivery with the same webhook-id, and sends a test event', async () => {
    t = await startTestServer({ apiKeys: KEYS, allowPrivateWebhooks: true });
    const r = await receiver();
    const { id } = await subscribe({ url: r.url, event_types: ['run.created'] });
    await createRun('once');
    await eventually(() => r.accepted.length, (n) => n === 1);
    const [delivery] = (await t.raw(`/api/v1/agent/webhooks/${id}/deliveries`, { key: KEYS[0]!.key })).body.deliveries;
    const again = await t.raw(`/api/v1/agent/webhooks/${id}/deliveries/${delivery.id}/redeliver`, { method: 'POST', key: KEYS[0]!.key });
    expect(again.status).toBe(202);
    await eventually(() => r.accepted.length, (n) => n === 2);
    expect(r.accepted[1]!.headers['webhook-id']).toBe(r.accepted[0]!.headers['webhook-id']);
    const test = await t.raw(`/api/v1/agent/webhooks/${id}/test`, { method: 'POST', key: KEYS[0]!.key });
    expect(test.status).toBe(202);
    await eventually(() => r.accepted.length, (n) => n === 3);
    expect(r.accepted[2]!.event).toMatchObject({ type: 'webhook.test', data: { webhook_id: id } });
  });
});

describe('webhooks in the OpenAPI document', () => {
  it('lists every webhook path, marked as an extension', async () => {
    t = await startTestServer({ apiKeys: KEYS });
    const doc = (await t.raw('/api/v1/openapi.json')).body;
    for (const path of ['/agent/webhooks', '/agent/webhooks/{webhookId}', '/agent/webhooks/{webhookId}/deliveries', '/agent/webhooks/{webhookId}/rotate-secret']) {
      expect(doc.paths[path], path).toBeDefined();
      for (const operation of Object.values(doc.paths[path]) as { 'x-agent-runs-extension'?: boolean }[]) expect(operation['x-agent-runs-extension']).toBe(true);
    }
    expect(doc.components.schemas.WebhookSubscription).toBeDefined();
  });
});

describe('webhook addresses', () => {
  it('refuses http, loopback, private and metadata addresses unless the operator allows them', async () => {
    t = await startTestServer({ apiKeys: KEYS });
    for (const url of ['http://example.com/hooks', 'https://localhost/hooks', 'https://127.0.0.1/hooks', 'https://10.1.2.3/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://[::ffff:127.0.0.1]/x']) {
      const res = await t.raw('/api/v1/agent/webhooks', { method: 'POST', body: JSON.stringify({ url }), headers: { 'content-type': 'application/json' } });
      expect(res.status, url).toBe(400);
      expect(JSON.stringify(res.body), url).toMatch(/url/);
    }
    const bad = await t.raw('/api/v1/agent/webhooks', { method: 'POST', body: JSON.stringify({ url: 'https://example.com/x', event_types: ['run.exploded'] }), headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/event_types/);
  });

  it('refuses a filter on a state no run is ever in, naming the field and the states there are', async () => {
    t = await startTestServer({ apiKeys: KEYS });
    const res = await t.raw('/api/v1/agent/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: 'https://example.com/x', filter: { states: ['SUCCEEDED', 'DONE'] } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    const issue = (res.body.issues as { path: string; message: string }[]).find((i) => i.path === 'filter.states[1]');
    expect(issue?.message).toMatch(/QUEUED.*SUCCEEDED.*CANCELLED/);
    expect((await t.raw('/api/v1/agent/webhooks')).body.webhooks).toEqual([]);
  });
});
