import { afterEach, expect, it } from 'vitest';
import type { RunItem } from '@agent-runs/core/contract';
import { RunEventLog } from '../src/runs/run-event-log.js';
import { openSqliteStorage } from '../src/store/open-sqlite-storage.js';
import type { Storage } from '../src/store/storage.js';
import { newRun } from './support/new-run.js';

let storage: Storage | undefined;
afterEach(async () => {
  await storage?.close();
});

it("tells its change listeners of a run's new state at once, before the run's event is read and written", async () => {
  storage = openSqliteStorage(':memory:');
  await storage.runs.create(newRun('r1'));
  const run = (await storage.runs.transition('r1', { from: ['QUEUED'], to: 'SUCCEEDED', at: '2026-01-01T00:00:01.000Z' }))!;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // The run as the API shows it, held back: its event cannot be written until released.
  const log = new RunEventLog(storage.events, async (r) => (await held, { run_id: r.id, state: r.state }) as unknown as RunItem, 1 << 20, () => {});
  const told: string[] = [];
  const streamed: (string | undefined)[] = [];
  log.onChange((state) => told.push(state));
  log.streams.onRunChange((_id, data) => streamed.push(data));

  const written = log.runChanged(run);
  expect(told).toEqual(['SUCCEEDED']);
  expect(streamed).toEqual([]);
  release();
  await written;
  await log.flush();
  expect(streamed).toHaveLength(1);
  expect(told).toEqual(['SUCCEEDED']);
  await log.closeAll();
});

/** The storage's event store, noting the size of each append. */
function countingAppends(events: Storage['events'], sizes: number[]): Storage['events'] {
  return new Proxy(events, {
    get(target, key) {
      if (key === 'append') return (batch: unknown[], limit: number) => (sizes.push(batch.length), target.append(batch as never, limit));
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

it('writes at most 64 events a turn, the rest in the turns after, in order; an explicit flush writes everything at once', async () => {
  storage = openSqliteStorage(':memory:');
  for (let i = 0; i < 200; i++) await storage.runs.create(newRun(`r${i}`));
  const sizes: number[] = [];
  const log = new RunEventLog(countingAppends(storage.events, sizes), async (r) => ({ run_id: r.id }) as unknown as RunItem, 1 << 20, () => {});
  // One line from each of 200 runs in the same moment, as a burst of runs ending prints.
  for (let i = 0; i < 200; i++) log.output(`r${i}`, 'stdout', `line of r${i}\n`);
  for (let turn = 0; turn < 10 && sizes.reduce((a, b) => a + b, 0) < 200; turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(sizes).toEqual([64, 64, 64, 8]);
  expect((await storage.events.after('r199', 0, 10)).map((e) => e.data)).toEqual([expect.stringContaining('line of r199')]);

  sizes.length = 0;
  for (let i = 0; i < 200; i++) log.output(`r${i}`, 'stdout', `second line of r${i}\n`);
  await log.flush();
  expect(sizes).toEqual([200]);
  await log.closeAll();
});
