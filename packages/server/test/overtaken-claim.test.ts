import { describe, expect, it } from 'vitest';
import { MonotonicClock } from '../src/runs/monotonic-clock.js';
import type { RunStore } from '../src/store/runs/run-store.js';
import { newRun } from './support/new-run.js';
import { queueOnStorage } from './support/queue-on-storage.js';
import { storagesUnderTest } from './support/storages-under-test.js';

const stores = storagesUnderTest();

/**
 * The store, with its first `claimNext` or `get` held until `release`: a claim is made at once
 * and its answer held back; a read waits, then reads the store as it is by then. `reached`
 * resolves once that first call is made.
 */
function holdFirst(runs: RunStore, method: 'claimNext' | 'get'): { store: RunStore; release: () => void; reached: Promise<void> } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  let held = false;
  const store = new Proxy(runs, {
    get(target, key) {
      if (key === method && !held) {
        held = true;
        reach();
        if (method === 'get') return async (id: string) => released.then(() => target.get(id));
        return async (...args: Parameters<RunStore['claimNext']>) => {
          const claimed = await target.claimNext(...args);
          await released;
          return claimed;
        };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, release, reached };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A run claimed, then cancelled, followed up and requeued (what the services do, done here by
 * hand in their order) while the claim's answer comes back (`claimNext`) or while its
 * execution is prepared (the claim check after it, `get`).
 */
const cases = [
  { concurrency: 1, held: 'claimNext', when: 'before it is prepared' },
  { concurrency: 2, held: 'claimNext', when: 'before it is prepared' },
  { concurrency: 1, held: 'get', when: 'while it is prepared' },
  { concurrency: 2, held: 'get', when: 'while it is prepared' },
] as const;

describe.each(stores)('a claim overtaken by a cancel and a follow-up, on $name', ({ enabled, open }) => {
  it.runIf(enabled).each(cases)('$when starts nothing, and the next execution answers every follow-up (concurrency $concurrency)', async ({ concurrency, held }) => {
    const storage = await open();
    const clock = new MonotonicClock();
    const { store, release, reached } = holdFirst(storage.runs, held);
    const { queue, journal, close } = queueOnStorage(storage, clock, { concurrency, store });
    try {
      const at = clock.now();
      const id = `run-${concurrency}-${held}`;
      // The first execution would work until cancelled; only a follow-up ends.
      await storage.runs.create(newRun(id, { createdAt: at, updatedAt: at, prompt: 'Work until stopped [simulate hang]' }));
      // Waiting before the claim: the execution prepared from it takes this one.
      await storage.conversations.addFollowup(id, { text: 'And the changelog', mode: null, at: clock.now() });
      queue.runQueued();
      await until(() => storage.runs.get(id), (run) => run?.state === 'INPROGRESS', 'the claim');
      // The held call must be the preparation's own: the requeue below reads through the same
      // store, and would otherwise be the one held, waiting for a release that comes after it.
      await reached;
      // Held at the claim check, after the execution was numbered.
      if (held === 'get') expect(await storage.conversations.unended(id)).toBeDefined();

      // The cancel, as another server answers it (or this one before the run is listed as
      // prepared here): only the store hears of it, so the claim check alone must catch it.
      await storage.runs.transition(id, { from: ['QUEUED', 'INPROGRESS'], to: 'CANCELLED', at: clock.now() });
      // The follow-up: kept, then the run back to QUEUED and the queue told.
      await storage.conversations.addFollowup(id, { text: 'Now this instead [simulate 10ms]', mode: null, at: clock.now() });
      expect(await journal.requeue(id)).toBe(true);
      queue.runQueued();
      release();

      const run = await until(() => storage.runs.get(id), (r) => r?.state !== 'QUEUED' && r?.state !== 'INPROGRESS', 'the run to end');
      expect(run?.state).toBe('SUCCEEDED');
      const messages = await storage.conversations.list(id);
      const results = messages.filter((m) => m.kind === 'result').map((m) => [m.execution, m.state]);
      // Overtaken before: nothing prepared, nothing numbered. While: numbered, ended unstarted, its follow-up given back.
      expect(results).toEqual(held === 'claimNext' ? [[1, 'SUCCEEDED']] : [[1, 'CANCELLED'], [2, 'SUCCEEDED']]);
      const answering = held === 'claimNext' ? 1 : 2;
      expect(messages.filter((m) => m.kind === 'followup').map((m) => m.execution)).toEqual([answering, answering]);
    } finally {
      await close();
    }
  });
});
