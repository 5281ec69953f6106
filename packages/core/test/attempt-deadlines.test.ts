import { describe, expect, it } from 'vitest';
import { attemptDeadlines } from '../src/internal/attempt-deadlines.js';

const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('attempt deadlines on one timer', () => {
  it('expires a short deadline added while a long one is pending, at its own time', async () => {
    const expired: string[] = [];
    const long = attemptDeadlines.add(10_000, () => expired.push('long'));
    const started = performance.now();
    const short = new Promise<number>((resolve) => attemptDeadlines.add(50, () => resolve(performance.now() - started)));
    expect(await short).toBeLessThan(1000);
    expect(expired).toEqual([]);
    attemptDeadlines.clear(long);
  });

  it('never expires a deadline that was cleared, and still expires the next one', async () => {
    const expired: string[] = [];
    const first = attemptDeadlines.add(20, () => expired.push('first'));
    attemptDeadlines.add(60, () => expired.push('second'));
    attemptDeadlines.clear(first);
    await after(150);
    expect(expired).toEqual(['second']);
  });

  it('expires deadlines of different lengths in the order they fall due', async () => {
    const expired: number[] = [];
    for (const ms of [90, 30, 60]) attemptDeadlines.add(ms, () => expired.push(ms));
    await after(200);
    expect(expired).toEqual([30, 60, 90]);
  });

  it('keeps a deadline longer than a timer can wait (2^40 ms) pending, without delaying a short one', async () => {
    const expired: string[] = [];
    // A timer given more than 2^31 - 1 ms fires after 1 ms, with this warning, and would fire so again and again.
    const overflows: string[] = [];
    const onWarning = (warning: Error) => warning.name === 'TimeoutOverflowWarning' && overflows.push(warning.message);
    process.on('warning', onWarning);
    const far = attemptDeadlines.add(2 ** 40, () => expired.push('far'));
    attemptDeadlines.add(30, () => expired.push('short'));
    await after(150);
    process.off('warning', onWarning);
    expect(expired).toEqual(['short']);
    expect(overflows).toEqual([]);
    attemptDeadlines.clear(far);
  });
});
