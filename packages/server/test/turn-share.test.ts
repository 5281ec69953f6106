import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { TurnShare } from '../src/runs/turn-share.js';

describe('TurnShare', () => {
  it('starts a burst a few per turn of the event loop, with the loop free between', async () => {
    const share = new TurnShare(16);
    let started = 0;
    for (let i = 0; i < 40; i++) void share.take().then(() => (started += 1));
    await Promise.resolve();
    expect(started).toBe(16);
    // Each later turn (after the loop has polled for I/O) starts the next 16.
    await nextTurn();
    expect(started).toBe(32);
    await nextTurn();
    expect(started).toBe(40);
  });

  it('lets work through at once while the turn has room', async () => {
    const share = new TurnShare(2);
    await share.take();
    await share.take();
    let third = false;
    void share.take().then(() => (third = true));
    await Promise.resolve();
    expect(third).toBe(false);
    await expect.poll(() => third).toBe(true);
  });
});
