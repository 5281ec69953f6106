import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/store/storage.js';
import { minuteAgoSecond } from '../../src/store/runs/principal-creates.js';
import { utcDayOf } from '../../src/store/spend/principal-spend-table.js';
import { newRun } from '../support/new-run.js';
import { storagesUnderTest } from '../support/storages-under-test.js';

const T0 = Date.UTC(2026, 5, 1, 10, 0, 0);
const iso = (ms: number) => new Date(T0 + ms).toISOString();
/** The second a minute before `ms`, as a check asks for the window. */
const minuteBefore = (ms: number) => iso(ms - 60_000).slice(0, 19);
const NOTHING = { held: { queued: 0, inProgress: 0 }, creates: { count: 0, oldestSecond: undefined }, spend: { costUsd: 0, tokens: 0 } };

describe.each(storagesUnderTest())("a principal's standing in one read on $name", (factory) => {
  let storage: Storage;
  beforeEach(async () => {
    if (!factory.enabled) return;
    storage = await factory.open();
  });
  afterEach(async () => storage?.close());

  it.runIf(factory.enabled)('reads its held runs, creates of the last minute and spend of the day together, only the parts asked for', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const [gus, hal] = [`gus-${suffix}`, `hal-${suffix}`];
    const host = `host-${suffix}`;
    // Gus: three runs queued over 20 s, one of them then claimed; one made long before the window.
    await storage.runs.create(newRun(`old-${suffix}`, { creator: { uid: gus }, workerHost: host, createdAt: iso(-3_600_000), state: 'SUCCEEDED' }));
    for (const [i, ms] of [0, 5_000, 20_000].entries()) {
      await storage.runs.create(newRun(`g${i}-${suffix}`, { creator: { uid: gus }, workerHost: host, createdAt: iso(ms), updatedAt: iso(ms) }));
    }
    const claimed = await storage.runs.claimNext('server-a', iso(21_000), 30_000, [host, host]);
    expect(claimed?.creator.uid).toBe(gus);
    await storage.runs.setHarnessState(claimed!.id, { requestUsage: { inference_cost_usd: 0.75, total_tokens: 900 } }, iso(22_000));
    // Hal's runs and spend are his own.
    await storage.runs.create(newRun(`h0-${suffix}`, { creator: { uid: hal }, workerHost: host, createdAt: iso(1_000) }));

    const at = 30_000;
    const day = iso(at).slice(0, 10);
    const all = await storage.runs.standingOf(gus, { held: true, createsSince: minuteBefore(at), spendDay: day, spendTokens: true });
    expect(all).toEqual({
      held: { queued: 2, inProgress: 1 },
      creates: { count: 3, oldestSecond: '2026-06-01T10:00:00' },
      spend: { costUsd: 0.75, tokens: 900 },
    });
    // Each part alone: the others read as nothing, not as what the principal has.
    expect(await storage.runs.standingOf(gus, { held: true })).toEqual({ ...NOTHING, held: all.held });
    expect(await storage.runs.standingOf(gus, { held: false, createsSince: minuteBefore(at) })).toEqual({ ...NOTHING, creates: all.creates });
    expect(await storage.runs.standingOf(gus, { held: false, spendDay: day, spendTokens: true })).toEqual({ ...NOTHING, spend: all.spend });
    // A check's read of the spend: its cost alone, which is what a quota holds.
    expect(await storage.runs.standingOf(gus, { held: false, spendDay: day })).toEqual({ ...NOTHING, spend: { costUsd: 0.75, tokens: 0 } });
    expect(await storage.runs.standingOf(gus, { held: false })).toEqual(NOTHING);
    // Later, the window has moved past the first creates; another day has no spend.
    const later = await storage.runs.standingOf(gus, { held: true, createsSince: minuteBefore(66_000), spendDay: '2026-06-02', spendTokens: true });
    expect(later).toEqual({ held: all.held, creates: { count: 1, oldestSecond: '2026-06-01T10:00:20' }, spend: { costUsd: 0, tokens: 0 } });
    expect(await storage.runs.standingOf(hal, { held: true, createsSince: minuteBefore(at), spendDay: day, spendTokens: true })).toEqual({
      ...NOTHING,
      held: { queued: 1, inProgress: 0 },
      creates: { count: 1, oldestSecond: '2026-06-01T10:00:01' },
    });
    // A principal with no row in any counter gives one row of nothing.
    expect(await storage.runs.standingOf(`nobody-${suffix}`, { held: true, createsSince: minuteBefore(at), spendDay: day, spendTokens: true })).toEqual(NOTHING);
    expect(await storage.runs.spendOf(gus, day)).toEqual(all.spend);
  });
});

describe('the second and day a check asks for', () => {
  it('are those of the time given, whatever time was asked before (each keeps its last answer)', () => {
    const times = [T0 + 999, T0 + 1_000, T0 + 500, T0 - 1, T0 + 86_400_000, T0 + 86_399_999, T0 + 1_000, Date.UTC(2026, 11, 31, 23, 59, 59, 999)];
    for (const ms of times) {
      const now = new Date(ms);
      expect(minuteAgoSecond(now), now.toISOString()).toBe(new Date(ms - 60_000).toISOString().slice(0, 19));
      expect(utcDayOf(now), now.toISOString()).toBe(now.toISOString().slice(0, 10));
    }
  });
});
