import { afterEach, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/store/storage.js';
import type { WebhookSubscriptionRecord } from '../../src/store/webhooks/webhook-store.js';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { newWebhookSecret } from '../../src/webhooks/webhook-secret.js';
import { eventually } from '../support/eventually.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { storagesUnderTest } from '../support/storages-under-test.js';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.js';

// Four slots: a principal holds at most three, a subscription two, one while backed off.
const SLOTS = 4;

let storage: Storage | undefined;
let dispatcher: WebhookDispatcher | undefined;
let server: TestServer | undefined;
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await dispatcher?.stop(0);
  await storage?.close();
  await server?.close();
  [storage, dispatcher, server] = [undefined, undefined, undefined];
  for (const receiver of receivers.splice(0)) await receiver.close();
});
/** Tests share a PostgreSQL database: each names its rows apart. */
let tests = 0;

/** A receiver that accepts each request and never answers, and one that answers 200 at once. */
async function receiversOf() {
  const dead = await startReceiver(() => 'hang');
  const live = await startReceiver();
  receivers.push(dead, live);
  return { dead, live };
}

async function start(open: () => Promise<Storage>, timeoutMs: number) {
  storage = await open();
  const store = storage.webhooks;
  const prefix = `t${++tests}`;
  dispatcher = new WebhookDispatcher({
    store, sources: {} as never, owner: 'server-1', sharedRuns: true, allowPrivate: true, retryDelaysMs: [600_000],
    pollMs: 10, claimCheckMs: 5000, leaseMs: 60_000, timeoutMs, maxResponseBytes: 1024, concurrency: SLOTS, log: () => {},
  });
  const at = new Date().toISOString();
  const subscribe = (id: string, ownerUid: string, url: string) =>
    store.createSubscription({
      id: `${prefix}_${id}`, ownerUid, url, eventTypes: ['run.created'], filter: {}, thin: false, enabled: true, disabledReason: null, description: null,
      secret: newWebhookSecret(), previousSecret: null, previousSecretExpiresAt: null, declared: false, createdAt: at, updatedAt: at,
    } satisfies WebhookSubscriptionRecord);
  let seq = 0;
  /** A delivery to the subscription of a run's event, due now. */
  const deliver = (subscriptionId: string, run: string) => {
    seq += 2;
    return store.addDelivery({
      id: `msg_${prefix}_${seq}`, subscriptionId: `${prefix}_${subscriptionId}`, eventSeq: seq, eventType: 'run.created', orderKey: run, payload: `{"type":"run.created","timestamp":"${at}","data":{"n":${seq}}}`,
      nextAttemptAt: Date.now(), createdAt: new Date().toISOString(),
    });
  };
  return { subscribe, deliver };
}

/** How long a delivery added now takes to reach `receiver`, with the dispatcher woken as a new subscription or run would. */
async function timeToArrive(receiver: WebhookReceiver, add: () => Promise<void>): Promise<number> {
  const before = receiver.received.length;
  const from = Date.now();
  await add();
  dispatcher!.wake();
  await eventually(() => receiver.received.length, (n) => n > before, 20_000);
  return receiver.received[before]!.at - from;
}

describe.each(storagesUnderTest())('the dispatcher on $name', ({ enabled, open }) => {
  it.runIf(enabled)("delivers a principal's webhook at once while another's dead receiver has more deliveries due than there are slots", async () => {
    const { dead, live } = await receiversOf();
    const { subscribe, deliver } = await start(open, 8000);
    // Principal A: six subscriptions to a receiver that never answers, one delivery due each.
    for (let i = 1; i <= 6; i++) {
      await subscribe(`wh_a${i}`, 'uid-a', dead.url);
      await deliver(`wh_a${i}`, `run-a${i}`);
    }
    await subscribe('wh_b', 'uid-b', live.url);
    dispatcher!.start();
    await eventually(() => dead.received.length, (n) => n >= SLOTS - 1);
    // Principal B's delivery gets the slot A may not take, not one A frees when its attempts time out (8 s).
    expect(await timeToArrive(live, () => deliver('wh_b', 'run-b'))).toBeLessThan(4000);
    expect(dead.received).toHaveLength(SLOTS - 1);
  }, 30_000);

  it.runIf(enabled)("delivers to a principal's other subscription at once while one of its own has a dead receiver and more runs due than there are slots", async () => {
    const { dead, live } = await receiversOf();
    const { subscribe, deliver } = await start(open, 8000);
    await subscribe('wh_dead', 'uid-a', dead.url);
    for (let i = 1; i <= 6; i++) await deliver('wh_dead', `run-${i}`);
    await subscribe('wh_live', 'uid-a', live.url);
    dispatcher!.start();
    await eventually(() => dead.received.length, (n) => n >= SLOTS / 2);
    expect(await timeToArrive(live, () => deliver('wh_live', 'run-1'))).toBeLessThan(4000);
    expect(dead.received).toHaveLength(SLOTS / 2);
  }, 30_000);

  it.runIf(enabled)('sends a subscription whose attempts got no answer in time one attempt at a time until one is answered', async () => {
    const { dead } = await receiversOf();
    const timeoutMs = 3000;
    const { subscribe, deliver } = await start(open, timeoutMs);
    await subscribe('wh_dead', 'uid-a', dead.url);
    for (let i = 1; i <= 6; i++) await deliver('wh_dead', `run-${i}`);
    dispatcher!.start();
    // Two at first (its share), then, once they timed out, one at a time: each waits for the one before to time out.
    await eventually(() => dead.received.length, (n) => n >= 4, 20_000);
    const at = dead.received.map((r) => r.at);
    expect(at[1]! - at[0]!).toBeLessThan(timeoutMs / 2);
    expect(at[3]! - at[2]!).toBeGreaterThan(timeoutMs * 0.7);
  }, 30_000);
});

it("delivers another principal's run event at once while a key's 70 webhooks to a receiver that never answers hold the server's attempts (15 s each)", async () => {
  const keys = [
    { key: 'alice-key-0123456789', principal: 'alice' },
    { key: 'bob-key-0123456789', principal: 'bob' },
  ];
  server = await startTestServer({ apiKeys: keys, allowPrivateWebhooks: true });
  const { dead, live } = await receiversOf();
  const post = async (path: string, body: unknown, key: string) => {
    const res = await server!.raw(`/api/v1/agent/${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, key });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body;
  };
  // More of Alice's deliveries due at once than the server's 64 slots.
  for (let i = 0; i < 70; i++) await post('webhooks', { url: dead.url, event_types: ['run.created'] }, keys[0]!.key);
  await post('webhooks', { url: live.url, event_types: ['run.created'] }, keys[1]!.key);
  await post('runs', { prompt: 'alice' }, keys[0]!.key);
  await eventually(() => dead.received.length, (n) => n >= 56, 20_000);
  const from = Date.now();
  const { run_id: runId } = await post('runs', { prompt: 'bob' }, keys[1]!.key);
  await eventually(() => live.received.map((r) => r.event.data.run_id), (ids) => ids.includes(runId), 20_000);
  // Before Alice's attempts time out (15 s): Bob's share of the slots was kept for him.
  expect(live.received[0]!.at - from).toBeLessThan(5000);
  expect(dead.received.length).toBeLessThanOrEqual(56);
}, 60_000);
