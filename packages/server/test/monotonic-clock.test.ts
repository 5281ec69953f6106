import { afterEach, describe, expect, it, vi } from 'vitest';
import { MonotonicClock } from '../src/runs/monotonic-clock.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the runs\' clock', () => {
  it('keeps the wall clock\'s time through a burst of calls in one millisecond', () => {
    vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-01-01T00:00:00.000Z'));
    const clock = new MonotonicClock();
    const stamps = Array.from({ length: 1000 }, () => clock.now());
    expect(new Set(stamps)).toEqual(new Set(['2026-01-01T00:00:00.000Z']));
  });

  it('does not go back when the system clock is set back', () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-01-01T00:00:05.000Z'));
    const clock = new MonotonicClock();
    expect(clock.now()).toBe('2026-01-01T00:00:05.000Z');
    now.mockReturnValue(Date.parse('2026-01-01T00:00:01.000Z'));
    expect(clock.now()).toBe('2026-01-01T00:00:05.000Z');
    now.mockReturnValue(Date.parse('2026-01-01T00:00:06.000Z'));
    expect(clock.now()).toBe('2026-01-01T00:00:06.000Z');
  });
});
