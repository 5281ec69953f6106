import { describe, expect, it } from 'vitest';
import { isTimeZone, parseCron } from '../src/cron/index.js';

describe('parseCron', () => {
  it('reads a 5-field expression in a time zone and gives its next firings', () => {
    const check = parseCron(' 0 9 * * 1-5 ', 'Europe/Paris');
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.cron.expression).toBe('0 9 * * 1-5');
    // Friday 2026-11-27 10:00 Paris: the next firing is Monday 09:00 Paris (08:00 UTC).
    expect(check.cron.nextAfter(new Date('2026-11-27T09:00:00Z'))?.toISOString()).toBe('2026-11-30T08:00:00.000Z');
  });

  it('names what is wrong with a 6-field expression', () => {
    const check = parseCron('0 0 9 * * 1');
    expect(check).toMatchObject({ ok: false });
    expect(!check.ok && check.reason).toMatch(/^"0 0 9 \* \* 1" is not a 5-field cron expression/);
  });

  it('refuses an expression that never fires and a zone that does not exist', () => {
    expect(parseCron('0 0 30 2 *')).toEqual({ ok: false, reason: '"0 0 30 2 *" never fires (no such date)' });
    expect(parseCron('* * * * *', 'Mars/Olympus')).toEqual({ ok: false, reason: '"Mars/Olympus" is not an IANA time zone such as UTC or Europe/Paris' });
    expect(isTimeZone('UTC')).toBe(true);
  });
});
