import { describe, expect, it } from 'vitest';
import { MonotonicClock } from '../src/runs/monotonic-clock.js';
import type { Storage } from '../src/store/storage.js';
import { newRun } from './support/new-run.js';
import { queueOnStorage } from './support/queue-on-storage.js';
import { storagesUnderTest } from './support/storages-under-test.js';

const stores = storagesUnderTest();

/** The run claimed by `claimNext`, then cancelled, requeued by a follow-up and claimed again (here by server-b). */
async function overtake(storage: Storage, clock: MonotonicClock, id: string) {
  await storage.runs.transition(id, { from: ['QUEUED', 'INPROGRESS'], to: 'CANCELLED', at: clock.now() });
  await storage.runs.transition(id, { from: ['CANCELLED'], to: 'QUEUED', at: clock.now() });
  const again = await storage.runs.claimNext('server-b', clock.now(), 30_000);
  expect(again?.id).toBe(id);
  return again!;
}

/** Resolves once each run's execution has begun (its start is kept). */
async function started(storage: Storage, ...ids: string[]): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (const id of ids) {
    while ((await storage.conversations.unended(id)) === undefined) {
      if (Date.now() > deadline) throw new Error(`The execution of ${id} never started.`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/** Resolves once the run's last execution has its result. */
async function ended(storage: Storage, id: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await storage.conversations.unended(id)) !== undefined) {
    if (Date.now() > deadline) throw new Error(`The execution of ${id} never ended.`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(stores)('a transition under a claim, on $name', ({ enabled, open }) => {
  it.runIf(enabled)('changes nothing once the claim was overtaken, and applies under the current one', async () => {
    const storage = await open();
    const clock = new MonotonicClock();
    try {
      const at = clock.now();
      await storage.runs.create(newRun('run-claimed', { createdAt: at, updatedAt: at }));
      const first = (await storage.runs.claimNext('server-a', clock.now(), 30_000))!;
      const second = await overtake(storage, clock, first.id);
      expect(second.startedAt).not.toBe(first.startedAt);

      const stale = await storage.runs.transition(first.id, { from: ['INPROGRESS'], to: 'SUCCEEDED', at: clock.now(), claim: first.startedAt });
      expect(stale).toBeUndefined();
      expect(await storage.runs.get(first.id)).toMatchObject({ state: 'INPROGRESS', startedAt: second.startedAt });

      const current = await storage.runs.transition(first.id, { from: ['INPROGRESS'], to: 'FAILED', at: clock.now(), claim: second.startedAt });
      expect(current).toMatchObject({ state: 'FAILED', startedAt: second.startedAt });
    } finally {
      await storage.close();
    }
  });

  it.runIf(enabled)('an execution that ends after another server overtook its claim leaves that claim\'s run as it is', async () => {
    const storage = await open();
    const clock = new MonotonicClock();
    const { queue, close } = queueOnStorage(storage, clock, { concurrency: 1 });
    try {
      const at = clock.now();
      // Long enough that the overtake below (three writes) comes before it ends on a busy
      // machine: ended first, the run is SUCCEEDED and there is nothing to overtake.
      await storage.runs.create(newRun('run-overtaken-while-running', { createdAt: at, updatedAt: at, prompt: 'Work a while [simulate 3000ms]' }));
      queue.runQueued();
      await started(storage, 'run-overtaken-while-running');
      // Another server cancels, requeues and claims it; this one hears nothing and runs on.
      const theirs = await overtake(storage, clock, 'run-overtaken-while-running');
      // This server's execution ends (its result kept), then its outcome is written to the run.
      await ended(storage, 'run-overtaken-while-running');
      await new Promise((r) => setTimeout(r, 200));
      expect(await storage.runs.get(theirs.id)).toMatchObject({ state: 'INPROGRESS', startedAt: theirs.startedAt });
    } finally {
      await close();
    }
  }, 30_000);

  it.runIf(enabled)('a server that stops fails the runs it executes, but not one claimed again elsewhere since', async () => {
    const storage = await open();
    const clock = new MonotonicClock();
    const { queue, close } = queueOnStorage(storage, clock, { concurrency: 2 });
    try {
      const at = clock.now();
      for (const id of ['run-kept', 'run-taken']) await storage.runs.create(newRun(id, { createdAt: at, updatedAt: at, prompt: 'Work until stopped [simulate hang]' }));
      queue.runQueued();
      await started(storage, 'run-kept', 'run-taken');
      const theirs = await overtake(storage, clock, 'run-taken');
      await queue.stop({ message: 'The server stopped.' });
      expect(await storage.runs.get('run-kept')).toMatchObject({ state: 'FAILED', statusMessage: { message: 'The server stopped.' } });
      expect(await storage.runs.get('run-taken')).toMatchObject({ state: 'INPROGRESS', startedAt: theirs.startedAt });
    } finally {
      await close();
    }
  });
});
