import { describe, expect, it } from 'vitest';
import { newRun } from './support/new-run.js';
import { storagesUnderTest } from './support/storages-under-test.js';
import type { Storage } from '../src/store/storage.js';

const stores = storagesUnderTest();

const time = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;

/** Which server started a run's last execution, and whether it ended: what a next execution, on any server, waits on. */
/**
 * Claims the run (created QUEUED when new, put back to QUEUED otherwise) for `server` at
 * `second`, and begins its next execution under that claim, as the queue does.
 */
async function claimAndBegin(storage: Storage, runId: string, server: string, second: number) {
  const at = time(second);
  const run = await storage.runs.get(runId);
  if (!run) await storage.runs.create(newRun(runId, { createdAt: at, updatedAt: at }));
  else if (run.state !== 'QUEUED') await storage.runs.transition(runId, { from: [run.state], to: 'QUEUED', at });
  const claimed = (await storage.runs.claimNext(server, at, 30_000))!;
  return storage.conversations.beginExecution(runId, { claim: claimed.startedAt, server, at });
}

describe.each(stores)('execution starts in the $name conversation store', ({ enabled, open }) => {
  it.runIf(enabled)('numbers executions by their starts, tells the last one not ended, and keeps starts out of the conversation', async () => {
    const storage = await open();
    try {
      const c = storage.conversations;
      expect(await c.unended('r1')).toBeUndefined();
      expect(await c.lastStart('r1')).toBeUndefined();

      expect((await claimAndBegin(storage, 'r1', 'server-a', 1))?.execution).toBe(1);
      expect(await c.unended('r1')).toEqual({ execution: 1, server: 'server-a' });
      await c.addResult('r1', { execution: 1, state: 'CANCELLED', text: 'stopped', at: time(2) });
      expect(await c.unended('r1')).toBeUndefined();
      // Ended, its start still says where it ran (where its working directory is).
      expect(await c.lastStart('r1')).toEqual({ execution: 1, server: 'server-a' });

      await c.addFollowup('r1', { text: 'again', mode: null, at: time(3) });
      const second = await claimAndBegin(storage, 'r1', 'server-b', 4);
      expect(second?.execution).toBe(2);
      expect(second?.followups.map((m) => m.text)).toEqual(['again']);
      expect(await c.unended('r1')).toEqual({ execution: 2, server: 'server-b' });
      // Started and never ended (its server lost): the next is numbered after it all the same.
      expect((await claimAndBegin(storage, 'r1', 'server-a', 5))?.execution).toBe(3);
      expect(await c.lastStart('r1')).toEqual({ execution: 3, server: 'server-a' });
      // Another run's starts are its own.
      expect(await c.unended('r2')).toBeUndefined();
      expect(await c.lastStart('r2')).toBeUndefined();

      expect((await c.list('r1')).map((m) => [m.kind, m.text])).toEqual([
        ['result', 'stopped'],
        ['followup', 'again'],
      ]);
      expect(await c.pendingFollowups('r1')).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it.runIf(enabled)('numbers after the results of runs whose executions started before starts were kept', async () => {
    const storage = await open();
    try {
      await storage.conversations.addResult('old', { execution: 1, state: 'SUCCEEDED', text: 'done', at: time(1) });
      await storage.conversations.addResult('old', { execution: 2, state: 'SUCCEEDED', text: 'done', at: time(2) });
      expect(await storage.conversations.unended('old')).toBeUndefined();
      expect((await claimAndBegin(storage, 'old', 'server-a', 3))?.execution).toBe(3);
    } finally {
      await storage.close();
    }
  });

  it.runIf(enabled)('begins an execution only under the run’s current claim, taking the follow-ups waiting', async () => {
    const storage = await open();
    try {
      const c = storage.conversations;
      await storage.runs.create(newRun('claimed', { createdAt: time(1), updatedAt: time(1) }));
      await c.addFollowup('claimed', { text: 'first', mode: null, at: time(2) });
      const first = (await storage.runs.claimNext('server-a', time(3), 30_000))!;
      // Cancelled and requeued by a follow-up, then claimed again: the first claim is overtaken.
      await storage.runs.transition('claimed', { from: ['INPROGRESS'], to: 'CANCELLED', at: time(4) });
      await c.addFollowup('claimed', { text: 'second', mode: null, at: time(5) });
      await storage.runs.transition('claimed', { from: ['CANCELLED'], to: 'QUEUED', at: time(6) });
      const second = (await storage.runs.claimNext('server-b', time(7), 30_000))!;
      expect(second.startedAt! > first.startedAt!).toBe(true);

      expect(await c.beginExecution('claimed', { claim: first.startedAt, server: 'server-a', at: time(8) })).toBeUndefined();
      // Nothing changed: no start kept (the next is still execution 1), both follow-ups still waiting.
      expect(await c.unended('claimed')).toBeUndefined();
      expect((await c.pendingFollowups('claimed')).map((m) => m.text)).toEqual(['first', 'second']);

      const begun = await c.beginExecution('claimed', { claim: second.startedAt, server: 'server-b', at: time(9) });
      expect(begun?.execution).toBe(1);
      expect(begun?.followups.map((m) => m.text)).toEqual(['first', 'second']);
      expect(await c.unended('claimed')).toEqual({ execution: 1, server: 'server-b' });
      expect(await c.pendingFollowups('claimed')).toEqual([]);
    } finally {
      await storage.close();
    }
  });
});
