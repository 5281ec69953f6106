import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStorage } from '../../src/store/open-postgres-storage.js';
import { openSqliteStorage } from '../../src/store/open-sqlite-storage.js';
import type { Storage } from '../../src/store/storage.js';
import type { SqliteRunStore } from '../../src/store/runs/sqlite-run-store.js';
import type { RecordedAttempt, WebhookSubscriptionRecord } from '../../src/store/webhooks/webhook-store.js';
import { newRun } from '../support/new-run.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../../test/support/postgres.js';

const at = '2026-01-01T00:00:00.000Z';
const subscription = (eventTypes: string[], enabled = true, id = 'wh1'): WebhookSubscriptionRecord => ({
  id,
  ownerUid: null,
  url: 'https://example.com/hooks',
  eventTypes,
  filter: {},
  thin: false,
  enabled,
  disabledReason: null,
  description: null,
  secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0',
  previousSecret: null,
  previousSecretExpiresAt: null,
  declared: false,
  createdAt: at,
  updatedAt: at,
});

/** A delivery of `runId`'s event `eventSeq` to `subscriptionId`, due now. */
const delivery = (id: string, runId: string, eventSeq: number, { subscriptionId = 'wh1', payload = '{}', now = Date.now() } = {}) => ({
  id,
  subscriptionId,
  eventSeq,
  eventType: 'run.succeeded',
  orderKey: runId,
  payload,
  nextAttemptAt: now,
  createdAt: new Date(now).toISOString(),
});

/** A delivered attempt of the delivery `seq`. */
const delivered = (seq: number): RecordedAttempt => ({ seq, status: 'delivered', nextAttemptAt: null, at, responseStatus: 200, responseBody: '', error: null });

/** The outbox's events as `kind state`, emptied as the delivery worker would. */
async function drain(storage: Storage): Promise<string[]> {
  const events = await storage.webhooks.outbox(100);
  await storage.webhooks.fanOut(
    events.map((e) => e.seq),
    [],
  );
  return events.map((e) => `${e.kind} ${e.state ?? ''}`.trim());
}

const databases: TestDatabase[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const stores: [string, () => Promise<Storage>, boolean][] = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'agent-runs-outbox-'));
      dirs.push(dir);
      return openSqliteStorage(join(dir, 'runs.db'));
    },
    true,
  ],
  [
    'PostgreSQL',
    async () => {
      const database = await createTestDatabase();
      databases.push(database);
      return openPostgresStorage(database.url, { log: () => undefined, serverId: 'outbox-test' });
    },
    Boolean(postgresAdminUrl),
  ],
];

describe.each(stores)('the webhook store on %s', (name, open, available) => {
  it.runIf(available)('records a change only when an enabled subscription wants its event type', async () => {
    const storage = await open();
    try {
      const move = (id: string, from: string, to: 'INPROGRESS' | 'SUCCEEDED') => storage.runs.transition(id, { from: [from], to, at });
      // Subscribed to endings only: a create and a start write nothing, the ending does.
      await storage.webhooks.createSubscription(subscription(['run.succeeded']));
      await storage.runs.create(newRun('r1'));
      await move('r1', 'QUEUED', 'INPROGRESS');
      expect(await drain(storage)).toEqual([]);
      await move('r1', 'INPROGRESS', 'SUCCEEDED');
      expect(await drain(storage)).toEqual(['run.state_changed SUCCEEDED']);

      // Every change for run.state_changed; creates for run.created.
      await storage.webhooks.saveSubscription(subscription(['run.created', 'run.state_changed']));
      await storage.runs.create(newRun('r2'));
      await move('r2', 'QUEUED', 'INPROGRESS');
      expect(await drain(storage)).toEqual(['run.created QUEUED', 'run.state_changed INPROGRESS']);

      // A disabled subscription wants nothing.
      await storage.webhooks.saveSubscription(subscription(['run.created', 'run.state_changed'], false));
      await storage.runs.create(newRun('r3'));
      await move('r3', 'QUEUED', 'INPROGRESS');
      expect(await drain(storage)).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it.runIf(available)('claims its limit of due deliveries past those already leased, each once', async () => {
    const storage = await open();
    try {
      await storage.webhooks.createSubscription(subscription(['run.succeeded']));
      const now = Date.now();
      await storage.webhooks.fanOut([], Array.from({ length: 25 }, (_, i) => delivery(`msg_${i}`, `r${i}`, i, { now })));
      const claim = () => storage.webhooks.claim({ owner: 'server-1', now, leaseMs: 30_000, limit: 10 });
      const batches = [await claim(), await claim(), await claim(), await claim()];
      expect(batches.map((batch) => batch.length)).toEqual([10, 10, 5, 0]);
      expect(new Set(batches.flat().map((d) => d.id)).size).toBe(25);
    } finally {
      await storage.close();
    }
  });

  it.runIf(available)('leaves the subscriptions skipped out of a claim, and leases only what its choice picks of a quarter more than its limit', async () => {
    const storage = await open();
    try {
      for (const id of ['wh1', 'wh2', 'wh3']) await storage.webhooks.createSubscription(subscription(['run.succeeded'], true, id));
      const now = Date.now();
      const made = ['wh1', 'wh2', 'wh3'].flatMap((subscriptionId, s) =>
        Array.from({ length: 4 }, (_, i) => delivery(`msg_${subscriptionId}_${i}`, `r${i}`, s * 10 + i, { subscriptionId, now: now - 100 + s * 10 + i })),
      );
      await storage.webhooks.fanOut([], made);
      let offered: string[] = [];
      const claimed = await storage.webhooks.claim({
        owner: 'server-1', now, leaseMs: 30_000, limit: 4, skipSubscriptions: ['wh1'],
        choose: (due) => {
          offered = due.map((d) => d.id);
          return [due[1]!, due[3]!];
        },
      });
      // wh1's left out: the five oldest of the rest offered, the two chosen leased.
      expect(offered).toEqual(['msg_wh2_0', 'msg_wh2_1', 'msg_wh2_2', 'msg_wh2_3', 'msg_wh3_0']);
      expect(claimed.map((d) => d.id)).toEqual(['msg_wh2_1', 'msg_wh2_3']);
      // Those offered and not chosen are not leased: another claim takes them.
      const rest = await storage.webhooks.claim({ owner: 'server-2', now, leaseMs: 30_000, limit: 20 });
      expect(rest.map((d) => d.id)).toEqual(['msg_wh1_0', 'msg_wh1_1', 'msg_wh1_2', 'msg_wh1_3', 'msg_wh2_0', 'msg_wh2_2', 'msg_wh3_0', 'msg_wh3_1', 'msg_wh3_2', 'msg_wh3_3']);
    } finally {
      await storage.close();
    }
  });

  it.runIf(available)("claims in the fan-out's transaction what it has just stored, the first of each run only", async () => {
    const storage = await open();
    try {
      await storage.webhooks.createSubscription(subscription(['run.succeeded']));
      const now = Date.now();
      const claim = { owner: 'server-1', now, leaseMs: 30_000, limit: 10 };
      const claimed = await storage.webhooks.fanOut([], [delivery('msg_b', 'r1', 4, { now }), delivery('msg_a', 'r1', 2, { now }), delivery('msg_c', 'r2', 6, { now })], claim);
      // r1's later delivery waits for its first.
      expect(claimed.map((d) => d.id)).toEqual(['msg_a', 'msg_c']);
      // Leased to the first server: another server's claim finds nothing.
      expect(await storage.webhooks.claim({ owner: 'server-2', now, leaseMs: 30_000, limit: 10 })).toEqual([]);
      // A fan-out without a claim claims nothing, and leaves the delivery to the next claim.
      expect(await storage.webhooks.fanOut([], [delivery('msg_d', 'r3', 8, { now })])).toEqual([]);
      expect((await storage.webhooks.claim({ owner: 'server-2', now, leaseMs: 30_000, limit: 10 })).map((d) => d.id)).toEqual(['msg_d']);
    } finally {
      await storage.close();
    }
  });

  it.runIf(available)('says of a claimed delivery whether a later one of its run waits, and claims that one once the first is recorded', async () => {
    const storage = await open();
    try {
      await storage.webhooks.createSubscription(subscription(['run.succeeded']));
      const now = Date.now();
      const claim = (owner: string) => storage.webhooks.claim({ owner, now, leaseMs: 30_000, limit: 10 });
      await storage.webhooks.fanOut([], [delivery('msg_a', 'r1', 2, { now }), delivery('msg_b', 'r1', 4, { now, payload: '{"n":4}' }), delivery('msg_c', 'r2', 6, { now })]);
      const first = await claim('server-1');
      expect(first.map((d) => [d.id, d.hasNext])).toEqual([
        ['msg_a', true],
        ['msg_c', false],
      ]);
      const a = first[0]!.seq;
      // Not server-2's lease: its record is refused and changes nothing.
      expect(await storage.webhooks.recordAttempts('server-2', [delivered(a)])).toEqual([false]);
      expect(await claim('server-2')).toEqual([]);
      expect(await storage.webhooks.recordAttempts('server-1', [delivered(a)])).toEqual([true]);
      const next = await claim('server-2');
      expect(next.map((d) => [d.id, d.hasNext, d.payload])).toEqual([['msg_b', false, '{"n":4}']]);
      expect((await storage.webhooks.getDelivery('msg_a'))?.status).toBe('delivered');
    } finally {
      await storage.close();
    }
  });

  it.runIf(available)("gives a delivery whose lease ran out to the next claim, and refuses the old holder's record", async () => {
    const storage = await open();
    try {
      await storage.webhooks.createSubscription(subscription(['run.succeeded']));
      const now = Date.now();
      await storage.webhooks.fanOut([], [delivery('msg_a', 'r1', 2, { now })]);
      const [held] = await storage.webhooks.claim({ owner: 'server-1', now, leaseMs: 1000, limit: 10 });
      expect(await storage.webhooks.claim({ owner: 'server-2', now: now + 500, leaseMs: 1000, limit: 10 })).toEqual([]);
      const [taken] = await storage.webhooks.claim({ owner: 'server-2', now: now + 2000, leaseMs: 1000, limit: 10 });
      expect(taken?.id).toBe('msg_a');
      expect(await storage.webhooks.recordAttempts('server-1', [delivered(held!.seq)])).toEqual([false]);
      expect(await storage.webhooks.recordAttempts('server-2', [delivered(taken!.seq)])).toEqual([true]);
    } finally {
      await storage.close();
    }
  });

  it.runIf(available && name === 'SQLite')("keeps an event's payload once for all its subscriptions, and drops it when no delivery refers to it", async () => {
    const storage = await open();
    const payloads = () => ((storage.runs as SqliteRunStore).db.prepare('SELECT count(*) AS n FROM webhook_payloads').get() as { n: number }).n;
    try {
      await storage.webhooks.createSubscription(subscription(['run.succeeded']));
      await storage.webhooks.createSubscription(subscription(['run.succeeded'], true, 'wh2'));
      const now = Date.now();
      const body = JSON.stringify({ type: 'run.succeeded', data: { prompt: 'é'.repeat(5000) } });
      const claimed = await storage.webhooks.fanOut(
        [],
        [delivery('msg_1', 'r1', 2, { now, payload: body }), delivery('msg_2', 'r1', 2, { now, payload: body, subscriptionId: 'wh2' })],
        { owner: 'server-1', now, leaseMs: 30_000, limit: 10 },
      );
      expect(payloads()).toBe(1);
      // Read back whole, by the claim, the delivery log and a single look-up.
      expect(claimed.map((d) => d.payload)).toEqual([body, body]);
      expect((await storage.webhooks.deliveries('wh2', 10)).map((d) => d.payload)).toEqual([body]);
      expect((await storage.webhooks.getDelivery('msg_1'))?.payload).toBe(body);

      // A subscription deleted takes the payloads only it referred to.
      await storage.webhooks.fanOut([], [delivery('msg_3', 'r2', 4, { now, payload: '{"only":"wh2"}', subscriptionId: 'wh2' })]);
      expect(payloads()).toBe(2);
      await storage.webhooks.deleteSubscription('wh2');
      expect(payloads()).toBe(1);
      expect((await storage.webhooks.getDelivery('msg_1'))?.payload).toBe(body);

      // Pruned with the last delivery that referred to it.
      await storage.webhooks.recordAttempts('server-1', [delivered(claimed[0]!.seq)]);
      await storage.webhooks.prune(now + 1);
      expect(await storage.webhooks.getDelivery('msg_1')).toBeUndefined();
      expect(payloads()).toBe(0);
    } finally {
      await storage.close();
    }
  });
});
