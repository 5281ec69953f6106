import { describe, expect, it } from 'vitest';
import { Backoff, backoffDelay } from '../src/domain/backoff.js';

describe('backoff', () => {
  it('doubles from the first delay up to the cap, and starts again once reset', () => {
    const backoff = new Backoff({ firstMs: 250, maxMs: 1000 });
    expect(backoff.failing).toBe(false);
    expect([backoff.next(), backoff.next(), backoff.next(), backoff.next()]).toEqual([250, 500, 1000, 1000]);
    expect(backoff.failing).toBe(true);
    backoff.reset();
    expect(backoff.failing).toBe(false);
    expect(backoff.next()).toBe(250);
  });

  it('follows a list of delays, spent after its last, spread by the jitter', () => {
    const plan = { delaysMs: [1000, 5000], jitter: 0.2 };
    expect([1, 2, 3].map((n) => backoffDelay(plan, n, () => 0.5))).toEqual([1000, 5000, undefined]);
    expect(backoffDelay(plan, 1, () => 0)).toBe(800);
    expect(backoffDelay(plan, 1, () => 1)).toBe(1200);
    expect(backoffDelay({ firstMs: 100, maxMs: 5000, jitter: 0.5 }, 3, () => 0)).toBe(200);
  });
});
