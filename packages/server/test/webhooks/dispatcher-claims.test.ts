import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { SqliteRunStore } from '../../src/store/runs/sqlite-run-store.js';
import { SqliteWebhookStore } from '../../src/store/webhooks/sqlite-webhook-store.js';
import type { ClaimRequest, WebhookDeliveryRecord } from '../../src/store/webhooks/webhook-store.js';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { newWebhookSecret } from '../../src/webhooks/webhook-secret.js';
import { eventually } from '../support/eventually.js';

/** The real SQLite store, counting its claims. */
class CountingStore extends SqliteWebhookStore {
  claims = 0;
  override async claim(request: ClaimRequest): Promise<WebhookDeliveryRecord[]> {
    this.claims++;
    return super.claim(request);
  }
}

let runs: SqliteRunStore | undefined;
let dispatcher: WebhookDispatcher | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  await dispatcher?.stop();
  await runs?.close();
  receiver?.closeAllConnections();
  receiver?.close();
});

async function start(answers: number[]) {
  const arrivals: number[] = [];
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(Date.now());
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  runs = new SqliteRunStore(':memory:');
  const store = new CountingStore(runs.db, runs.writes);
  const at = new Date().toISOString();
  await store.createSubscription({
    id: 'wh_1', ownerUid: null, url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, eventTypes: ['run.created'], filter: {},
    thin: false, enabled: true, disabledReason: null, description: null, secret: newWebhookSecret(), previousSecret: null,
    previousSecretExpiresAt: null, declared: false, createdAt: at, updatedAt: at,
  });
  dispatcher = new WebhookDispatcher({
    store, sources: {} as never, owner: 'server-1', sharedRuns: true, allowPrivate: true, retryDelaysMs: [60],
    pollMs: 10, claimCheckMs: 5000, leaseMs: 30_000, timeoutMs: 5000, maxResponseBytes: 1024, concurrency: 4, log: () => {},
  });
  return { store, arrivals };
}

it('claims while idle only at its check interval, not on every poll', async () => {
  const { store } = await start([]);
  dispatcher!.start();
  await new Promise((resolve) => setTimeout(resolve, 600));
  // About 60 polls in 600 ms, and one claim: the first (deliveries left from before a restart).
  expect(store.claims).toBe(1);
});

it('still attempts a retry it scheduled when it falls due, well before the idle check', async () => {
  const { store, arrivals } = await start([503, 200]);
  await store.addDelivery({
    id: 'msg_1', subscriptionId: 'wh_1', eventSeq: 2, eventType: 'run.created', orderKey: 'run-1', payload: '{}',
    nextAttemptAt: Date.now(), createdAt: new Date().toISOString(),
  });
  dispatcher!.start();
  await eventually(() => arrivals.length, (n) => n === 2);
  // The retry was due 60 ms after the first answer; the idle check alone would take 5 s.
  expect(arrivals[1]! - arrivals[0]!).toBeLessThan(2500);
});

const due = (id: string, orderKey: string, eventSeq: number) => ({
  id, subscriptionId: 'wh_1', eventSeq, eventType: 'run.created', orderKey, payload: `{"n":${eventSeq}}`,
  nextAttemptAt: Date.now(), createdAt: new Date().toISOString(),
});

it('makes no claim of its own after an answer that leaves nothing waiting', async () => {
  const { store, arrivals } = await start([]);
  // Two: as many as one subscription's share of the four slots.
  for (const [i, run] of ['run-1', 'run-2'].entries()) await store.addDelivery(due(`msg_${i}`, run, i * 2));
  dispatcher!.start();
  await eventually(() => arrivals.length, (n) => n === 2);
  await new Promise((resolve) => setTimeout(resolve, 300));
  // The first claim took both; their answers let nothing through.
  expect(store.claims).toBe(1);
});

it("sends a run's next delivery as soon as the one before is answered, well before the idle check", async () => {
  const { store, arrivals } = await start([]);
  for (const seq of [2, 4, 6]) await store.addDelivery(due(`msg_${seq}`, 'run-1', seq));
  dispatcher!.start();
  await eventually(() => arrivals.length, (n) => n === 3);
  // One at a time, each claimed when the one before it was answered; the idle check alone would take 5 s each.
  expect(arrivals[2]! - arrivals[0]!).toBeLessThan(2500);
  expect(store.claims).toBe(3);
});
