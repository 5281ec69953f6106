import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStorage } from '../../src/store/open-postgres-storage.js';
import { openSqliteStorage } from '../../src/store/open-sqlite-storage.js';
import type { Storage } from '../../src/store/storage.js';
import type { WebhookSubscriptionRecord } from '../../src/store/webhook-store.js';
import { newRun } from '../support/new-run.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../../test/support/postgres.js';

const at = '2026-01-01T00:00:00.000Z';
const subscription = (eventTypes: string[], enabled = true): WebhookSubscriptionRecord => ({
  id: 'wh1',
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

describe.each(stores)('the outbox on %s', (_name, open, available) => {
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

  it.runIf(available)("claims in the fan-out's transaction what it has just stored, the first of each run only", async () => {
    const storage = await open();
    try {
      await storage.webhooks.createSubscription(subscription(['run.succeeded']));
      const now = Date.now();
      const delivery = (id: string, runId: string, eventSeq: number) => ({
        id,
        subscriptionId: 'wh1',
        eventSeq,
        eventType: 'run.succeeded',
        orderKey: runId,
        payload: '{}',
        nextAttemptAt: now,
        createdAt: new Date(now).toISOString(),
      });
      const claim = { owner: 'server-1', now, leaseMs: 30_000, limit: 10 };
      const claimed = await storage.webhooks.fanOut([], [delivery('msg_b', 'r1', 4), delivery('msg_a', 'r1', 2), delivery('msg_c', 'r2', 6)], claim);
      // r1's later delivery waits for its first.
      expect(claimed.map((d) => d.id)).toEqual(['msg_a', 'msg_c']);
      // Leased to the first server: another server's claim finds nothing.
      expect(await storage.webhooks.claim({ owner: 'server-2', now, leaseMs: 30_000, limit: 10 })).toEqual([]);
      // A fan-out without a claim claims nothing, and leaves the delivery to the next claim.
      expect(await storage.webhooks.fanOut([], [delivery('msg_d', 'r3', 8)])).toEqual([]);
      expect((await storage.webhooks.claim({ owner: 'server-2', now, leaseMs: 30_000, limit: 10 })).map((d) => d.id)).toEqual(['msg_d']);
    } finally {
      await storage.close();
    }
  });
});
