import { afterEach, describe, expect, it, vi } from 'vitest';
import { WorkerHub } from '../../src/workers/worker-hub.js';

/**
 * A worker's poll looks for a run (its claim awaits the database), then waits to be woken. A
 * run queued while it looked wakes nobody yet: the poll must not then wait out its 25 s for it.
 */
describe("a worker poll's wait", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const waitFor = (hub: WorkerHub, since?: number) => {
    let woken = false;
    void hub.wait('instance-1', 25_000, undefined, since).then(() => (woken = true));
    return () => woken;
  };

  it('ends at once for a run queued while its poll looked for one', async () => {
    vi.useFakeTimers();
    const hub = new WorkerHub();
    const looked = hub.wakeCount;
    hub.wakeAll();
    const woken = waitFor(hub, looked);
    await vi.advanceTimersByTimeAsync(0);
    expect(woken()).toBe(true);
  });

  it('waits when nothing came since it looked, until woken', async () => {
    vi.useFakeTimers();
    const hub = new WorkerHub();
    const woken = waitFor(hub, hub.wakeCount);
    await vi.advanceTimersByTimeAsync(24_000);
    expect(woken()).toBe(false);
    hub.wakeAll();
    await vi.advanceTimersByTimeAsync(0);
    expect(woken()).toBe(true);
  });
});
