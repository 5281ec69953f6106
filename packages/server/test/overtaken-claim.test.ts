import { describe, expect, it } from 'vitest';
import { SimulatedExecutor } from '../src/executors/simulated-executor.js';
import { ExecutionJournal } from '../src/runs/execution-journal.js';
import { MonotonicClock } from '../src/runs/monotonic-clock.js';
import { NO_PEERS } from '../src/runs/peers.js';
import { RunEventLog } from '../src/runs/run-event-log.js';
import { RunQueue } from '../src/runs/run-queue.js';
import { toRunItem } from '../src/runs/to-run-item.js';
import { runAttachmentSource } from '../src/store/run-attachments.js';
import type { RunStore } from '../src/store/run-store.js';
import { newRun } from './support/new-run.js';
import { storagesUnderTest } from './support/storages-under-test.js';

const stores = storagesUnderTest();

/** The store, with the answer of its first claim held back until `release` (the claim itself is made). */
function holdFirstClaim(runs: RunStore): { store: RunStore; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  const store = new Proxy(runs, {
    get(target, key) {
      if (key === 'claimNext' && !held) {
        held = true;
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
  return { store, release };
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
 * A claim whose answer comes late, after the run was cancelled, followed up and requeued:
 * what the services do between the claim and its answer is done here by hand, in their order.
 */
describe.each(stores)('a claim overtaken by a cancel and a follow-up, on $name', ({ enabled, open }) => {
  it.runIf(enabled).each([1, 2])('starts nothing for it, and the next execution answers the follow-up (concurrency %i)', async (concurrency) => {
    const storage = await open();
    const clock = new MonotonicClock();
    const { store, release } = holdFirstClaim(storage.runs);
    const events = new RunEventLog(storage.events, async (run) => toRunItem(run, ''), 1 << 20, () => undefined);
    const limits = { maxFileBytes: 1 << 20, maxRunBytes: 1 << 20, maxArtifactsPerExecution: 10 };
    const journal = new ExecutionJournal(store, storage.conversations, storage.artifacts, runAttachmentSource(store), limits, clock, events);
    const queue = new RunQueue({
      store,
      executor: new SimulatedExecutor(10),
      clock,
      concurrency,
      log: () => undefined,
      journal,
      events,
      owner: { id: 'server-a', leaseMs: 30_000 },
      peers: NO_PEERS,
    });
    try {
      const at = clock.now();
      const id = `run-${concurrency}`;
      // The first execution would work until cancelled; only the follow-up ends.
      await storage.runs.create(newRun(id, { createdAt: at, updatedAt: at, prompt: 'Work until stopped [simulate hang]' }));
      queue.runQueued();
      await until(() => storage.runs.get(id), (run) => run?.state === 'INPROGRESS', 'the claim');

      // The cancel: the run is not active here yet, so only the store hears of it.
      expect(queue.isActive(id)).toBe(false);
      await storage.runs.transition(id, { from: ['QUEUED', 'INPROGRESS'], to: 'CANCELLED', at: clock.now() });
      // The follow-up: kept, then the run back to QUEUED and the queue told.
      await storage.conversations.addFollowup(id, { text: 'Now this instead [simulate 10ms]', mode: null, at: clock.now() });
      expect(await journal.requeue(id)).toBe(true);
      queue.runQueued();
      release();

      const run = await until(() => storage.runs.get(id), (r) => r?.state !== 'QUEUED' && r?.state !== 'INPROGRESS', 'the run to end');
      expect(run?.state).toBe('SUCCEEDED');
      const messages = await storage.conversations.list(id);
      expect(messages.filter((m) => m.kind === 'followup').map((m) => m.execution)).toEqual([2]);
      expect(messages.filter((m) => m.kind === 'result').map((m) => [m.execution, m.state])).toEqual([
        [1, 'CANCELLED'],
        [2, 'SUCCEEDED'],
      ]);
    } finally {
      await queue.stop({ message: 'stopped' });
      await events.flush();
      await storage.close();
    }
  });
});
