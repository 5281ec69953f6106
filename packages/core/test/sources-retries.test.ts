import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../src/index.js';
import { useFaultServer } from './support/use-fault-server.js';

// Which schedule and named-agent calls may be repeated after a lost answer: PUT and DELETE
// always; pause and resume carry an Idempotency-Key (repeating them changes nothing);
// creates carry none, so a lost answer is not turned into a second schedule.
describe('retries of schedule and named-agent calls', () => {
  const ctx = useFaultServer({ maxRetries: 2 });
  const on = (method: string, path: string) => (r: { method: string; path: string }) => r.method === method && r.path === `/api/v1${path}`;

  it('repeats a schedule update after a reset', async () => {
    ctx.server.inject({ kind: 'reset-after' }, on('PUT', '/agent/schedules/s1'));
    // The fault server knows no schedules: the second attempt's 404 shows it was sent again.
    await expect(ctx.client.schedules.update('s1', { name: 'n', cron_schedule: '* * * * *', enabled: true, prompt: 'x' })).rejects.toBeInstanceOf(NotFoundError);
    expect(ctx.server.requests.filter(on('PUT', '/agent/schedules/s1'))).toHaveLength(2);
  });

  it('repeats a named agent delete after a reset', async () => {
    ctx.server.inject({ kind: 'reset-after' }, on('DELETE', '/agent/identities/a1'));
    await expect(ctx.client.agents.delete('a1')).rejects.toBeInstanceOf(NotFoundError);
    expect(ctx.server.requests.filter(on('DELETE', '/agent/identities/a1'))).toHaveLength(2);
  });

  it('sends pause with one Idempotency-Key across its attempts', async () => {
    ctx.server.inject({ kind: 'reset-after' }, on('POST', '/agent/schedules/s1/pause'));
    await ctx.client.schedules.pause('s1').catch(() => undefined);
    const keys = ctx.server.requests.filter(on('POST', '/agent/schedules/s1/pause')).map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });

  it('sends creates without an Idempotency-Key', async () => {
    await ctx.client.schedules.create({ name: 'n', cron_schedule: '* * * * *', prompt: 'x' }).catch(() => undefined);
    await ctx.client.agents.create({ name: 'n' }).catch(() => undefined);
    const creates = ctx.server.requests.filter((r) => r.method === 'POST');
    expect(creates.map((r) => r.path)).toEqual(['/api/v1/agent/schedules', '/api/v1/agent/identities']);
    expect(creates.map((r) => r.headers['idempotency-key'])).toEqual([undefined, undefined]);
  });
});
