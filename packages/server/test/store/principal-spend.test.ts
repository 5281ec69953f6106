import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCountStatement } from '../../src/store/runs/run-list-query.js';
import { sqliteDialect } from '../../src/store/sql-dialect.js';
import { SqliteRunStore } from '../../src/store/runs/sqlite-run-store.js';
import type { Storage } from '../../src/store/storage.js';
import { newRun } from '../support/new-run.js';
import { storagesUnderTest } from '../support/storages-under-test.js';

const usage = (cost: number, tokens: number) => ({ inference_cost_usd: cost, total_tokens: tokens });

describe.each(storagesUnderTest())('the daily spend per principal on $name', (factory) => {
  let storage: Storage;
  beforeEach(async () => {
    if (!factory.enabled) return;
    storage = await factory.open();
  });
  afterEach(async () => storage?.close());

  it.runIf(factory.enabled)('adds what each usage update grew by to the principal and UTC day of the update, never the same usage twice', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const [alice, bob] = [`alice-${suffix}`, `bob-${suffix}`];
    for (const [id, uid] of [[`a1-${suffix}`, alice], [`a2-${suffix}`, alice], [`b1-${suffix}`, bob]] as const) {
      await storage.runs.create(newRun(id, { creator: { uid } }));
    }
    await storage.runs.setHarnessState(`a1-${suffix}`, { requestUsage: usage(0.25, 1000) }, '2026-03-01T10:00:00.000Z');
    // The same usage stored again (a report repeated, a restart): nothing more.
    await storage.runs.setHarnessState(`a1-${suffix}`, { requestUsage: usage(0.25, 1000) }, '2026-03-01T10:00:01.000Z');
    await storage.runs.setHarnessState(`a1-${suffix}`, { requestUsage: usage(0.4, 1500) }, '2026-03-01T10:00:02.000Z');
    // A session id alone adds nothing.
    await storage.runs.setHarnessState(`a1-${suffix}`, { harnessSessionId: 's' });
    await storage.runs.setHarnessState(`a2-${suffix}`, { requestUsage: usage(0.1, 100) }, '2026-03-01T23:59:59.999Z');
    // Past midnight: the next day's.
    await storage.runs.setHarnessState(`a2-${suffix}`, { requestUsage: usage(0.3, 300) }, '2026-03-02T00:00:00.000Z');
    await storage.runs.setHarnessState(`b1-${suffix}`, { requestUsage: usage(7, 7) }, '2026-03-01T12:00:00.000Z');
    expect(await storage.runs.spendOf(alice, '2026-03-01')).toEqual({ costUsd: 0.5, tokens: 1600 });
    expect(await storage.runs.spendOf(alice, '2026-03-02')).toEqual({ costUsd: 0.2, tokens: 200 });
    expect(await storage.runs.spendOf(bob, '2026-03-01')).toEqual({ costUsd: 7, tokens: 7 });
    expect(await storage.runs.spendOf(bob, '2026-03-02')).toEqual({ costUsd: 0, tokens: 0 });
  });

  it.runIf(factory.enabled)('loses no amount when many updates of several runs land at once (two stores on PostgreSQL: two servers)', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const other = factory.name === 'PostgreSQL' ? await factory.open() : storage;
    try {
      const ids = Array.from({ length: 8 }, (_, i) => `p${i}-${suffix}`);
      for (const id of ids) await storage.runs.create(newRun(id, { creator: { uid: `carol-${suffix}` } }));
      // Each run's updates one after another, as its harness sends them; the runs all at once, on both stores.
      await Promise.all(
        ids.map(async (id, i) => {
          for (const step of [1, 2, 3, 4, 5]) await (i % 2 ? other : storage).runs.setHarnessState(id, { requestUsage: usage(step * 0.01, step) }, '2026-03-01T10:00:00.000Z');
        }),
      );
      expect(await storage.runs.spendOf(`carol-${suffix}`, '2026-03-01')).toEqual({ costUsd: 0.4, tokens: 40 });
    } finally {
      if (other !== storage) await other.close();
    }
  });
});

describe('the creates_per_minute count', () => {
  it("walks the principal's creates by time (runs_by_creator_created), not every run", () => {
    const store = new SqliteRunStore(':memory:');
    const { sql, params } = runCountStatement(
      { creator: 'alice', createdAfter: '2026-03-01T10:00:00.000Z', sortBy: 'created_at', sortOrder: 'asc', limit: 10 },
      sqliteDialect,
    );
    const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join('\n');
    expect(plan).toContain('runs_by_creator_created');
    expect(plan).not.toMatch(/SCAN runs\b(?! USING)/);
    void store.close();
  });
});
