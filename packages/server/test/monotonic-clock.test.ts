import { describe, expect, it, vi } from 'vitest';
import { MonotonicClock } from '../src/runs/monotonic-clock.js';

const FROZEN = Date.parse('2026-11-24T12:00:00.000Z');

describe('MonotonicClock', () => {
  it("gives one run's timestamps in one millisecond each a later one, so updated_at changes on every transition", () => {
    vi.spyOn(Date, 'now').mockReturnValue(FROZEN);
    try {
      const clock = new MonotonicClock();
      const stamps = Array.from({ length: 3 }, () => clock.now('run-a'));
      expect(stamps).toEqual(['2026-11-24T12:00:00.000Z', '2026-11-24T12:00:00.001Z', '2026-11-24T12:00:00.002Z']);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('keeps the wall clock through a burst of changes to different runs instead of running ahead of it', () => {
    vi.spyOn(Date, 'now').mockReturnValue(FROZEN);
    try {
      const clock = new MonotonicClock();
      // More runs than it keeps, so forgetting past ones is on the way too.
      const stamps = new Set(Array.from({ length: 5000 }, (_, i) => clock.now(`run-${i}`)));
      expect([...stamps]).toEqual(['2026-11-24T12:00:00.000Z']);
      expect(clock.now()).toBe('2026-11-24T12:00:00.000Z');
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('goes past a time the run already shows (set elsewhere, or by another server a moment ahead)', () => {
    vi.spyOn(Date, 'now').mockReturnValue(FROZEN);
    try {
      expect(new MonotonicClock().now('run-a', '2026-11-24T12:00:00.005Z')).toBe('2026-11-24T12:00:00.006Z');
      expect(new MonotonicClock().now('run-a', '2026-11-24T11:59:59.000Z')).toBe('2026-11-24T12:00:00.000Z');
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('still gives a run a later timestamp after the burst forgot the past ones', () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(FROZEN);
    try {
      const clock = new MonotonicClock();
      clock.now('run-a');
      clock.now('run-a');
      for (let i = 0; i < 2000; i++) clock.now(`run-${i}`);
      expect(clock.now('run-a')).toBe('2026-11-24T12:00:00.002Z');
      now.mockReturnValue(FROZEN + 10);
      expect(clock.now('run-a')).toBe('2026-11-24T12:00:00.010Z');
    } finally {
      vi.restoreAllMocks();
    }
  });
});
