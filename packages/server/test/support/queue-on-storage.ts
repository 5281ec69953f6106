import { SimulatedExecutor } from '../../src/executors/simulated-executor.js';
import { ExecutionJournal } from '../../src/runs/execution-journal.js';
import type { MonotonicClock } from '../../src/runs/monotonic-clock.js';
import { NO_PEERS } from '../../src/runs/peers.js';
import { RunEventLog } from '../../src/runs/run-event-log.js';
import { RunMoves } from '../../src/runs/run-moves.js';
import { RunQueue } from '../../src/runs/run-queue.js';
import { toRunItem } from '../../src/runs/to-run-item.js';
import { runAttachmentSource } from '../../src/store/runs/run-attachments.js';
import type { RunStore } from '../../src/store/runs/run-store.js';
import type { Storage } from '../../src/store/storage.js';

/**
 * The real queue of server-a (simulated executor, no peers) on a storage, its runs read and
 * written through `store` (the storage's own by default; a test may wrap it to hold a call).
 */
export function queueOnStorage(storage: Storage, clock: MonotonicClock, options: { concurrency: number; store?: RunStore }) {
  const store = options.store ?? storage.runs;
  const events = new RunEventLog(storage.events, async (run) => toRunItem(run, ''), 1 << 20, () => undefined);
  const limits = { maxFileBytes: 1 << 20, maxRunBytes: 1 << 20, maxArtifactsPerExecution: 10 };
  const moves = new RunMoves(store, clock, events);
  const journal = new ExecutionJournal(store, moves, storage.conversations, storage.artifacts, runAttachmentSource(store), limits, clock, events);
  const queue = new RunQueue({
    store,
    moves,
    executor: new SimulatedExecutor(10),
    clock,
    concurrency: options.concurrency,
    log: () => undefined,
    journal,
    events,
    owner: { id: 'server-a', leaseMs: 30_000 },
    peers: NO_PEERS,
  });
  /** Stops the queue, writes the events still pending and closes the storage. */
  const close = async () => {
    await queue.stop({ message: 'stopped' });
    await events.flush();
    await storage.close();
  };
  return { queue, journal, close };
}
