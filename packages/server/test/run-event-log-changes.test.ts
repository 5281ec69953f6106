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
