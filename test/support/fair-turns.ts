import { expect } from 'vitest';
import type { AgentRunsClient } from '@agent-runs/core';

/**
 * Principal A (client `a`) queues 200 runs, then B (client `b`) creates one: B's run must be
 * the next one started (no run of A's starts between B's create being answered and B's start),
 * while most of A's line still waits. The servers behind the clients run one run at a time each.
 * From the answer, not the run's `created_at`: a claim another server began before B's insert
 * committed could not see it, and rightly took A's next run.
 */
export async function expectNextAfterAnothersLongLine(a: AgentRunsClient, b: AgentRunsClient): Promise<void> {
  const ids: string[] = [];
  for (let i = 0; i < 200; i++) ids.push((await a.runs.create({ prompt: `A ${i}` })).run_id);
  const mine = await b.runs.create({ prompt: 'B' });
  const inLine = new Date().toISOString();
  const run = await b.runs.wait(mine.run_id, { timeout: 15_000 });
  expect(run.state).toBe('SUCCEEDED');
  const aRuns = [];
  for await (const r of a.runs.list({ limit: 100 })) aRuns.push(r);
  expect(aRuns).toHaveLength(200);
  const between = aRuns.filter((r) => r.started_at && r.started_at > inLine && r.started_at < run.started_at!);
  expect(between.map((r) => r.title)).toEqual([]);
  expect(aRuns.filter((r) => r.state === 'QUEUED').length).toBeGreaterThan(150);
  for (const id of ids) await a.runs.cancel(id).catch(() => undefined);
}
