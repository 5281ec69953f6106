import { describe, expect, it } from 'vitest';
import { useFaultServer } from './support/use-fault-server.js';

describe('pagination', () => {
  const ctx = useFaultServer();

  it('awaits to the first page', async () => {
    ctx.server.addRuns(25);
    const page = await ctx.client.runs.list({ limit: 10 });
    expect(page.runs).toHaveLength(10);
    expect(page.hasNextPage()).toBe(true);
    const next = await page.getNextPage();
    expect(next.runs[0]!.run_id).toBe(ctx.server.runs[10]!.run_id);
  });

  it('iterates every run across many pages in order', async () => {
    ctx.server.addRuns(1234);
    const ids: string[] = [];
    for await (const run of ctx.client.runs.list({ limit: 50 })) ids.push(run.run_id);
    expect(ids).toEqual(ctx.server.runs.map((r) => r.run_id));
    expect(ctx.server.requests).toHaveLength(25);
  });

  it('passes the filters on to every page', async () => {
    ctx.server.addRuns(30);
    let count = 0;
    for await (const _ of ctx.client.runs.list({ limit: 10, state: 'QUEUED', q: 'seeded' })) count++;
    expect(count).toBe(30);
    expect(ctx.server.requests.every((r) => r.query.get('q') === 'seeded' && r.query.get('state') === 'QUEUED')).toBe(true);
    expect(ctx.server.requests.slice(1).map((r) => r.query.get('cursor'))).toEqual(['10', '20']);
  });

  it('walks pages one at a time with iterPages', async () => {
    ctx.server.addRuns(7);
    const sizes: number[] = [];
    for await (const page of (await ctx.client.runs.list({ limit: 3 })).iterPages()) sizes.push(page.runs.length);
    expect(sizes).toEqual([3, 3, 1]);
  });

  it('rejects getNextPage on the last page', async () => {
    ctx.server.addRuns(2);
    const page = await ctx.client.runs.list({ limit: 5 });
    expect(page.hasNextPage()).toBe(false);
    await expect(page.getNextPage()).rejects.toThrow(/no next page/);
  });
});
