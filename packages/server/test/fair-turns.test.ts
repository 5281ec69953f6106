import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { startTestServer, type TestServer } from './support/start-test-server.js';

/**
 * Fair turns on one server (and, in CI's PostgreSQL pass, on PostgreSQL): principal A queues
 * 200 runs on a server that runs one at a time, then B creates one; B's run is the next
 * started, not the 201st.
 */
const KEYS = { a: 'principal-a-key-0123456789', b: 'principal-b-key-0123456789' };
let t: TestServer;
let a: AgentRunsClient;
let b: AgentRunsClient;
beforeAll(async () => {
  t = await startTestServer({ concurrency: 1, simulatedDurationMs: 150, apiKeys: [{ key: KEYS.a, principal: 'a' }, { key: KEYS.b, principal: 'b' }] });
  a = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: KEYS.a, maxRetries: 0 });
  b = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: KEYS.b, maxRetries: 0 });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await t?.close();
});

describe('fair turns between principals', () => {
  it("starts B's one run at the next free slot while A has 200 in line", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push((await a.runs.create({ prompt: `A ${i}` })).run_id);
    const mine = await b.runs.create({ prompt: 'B' });
    const run = await b.runs.wait(mine.run_id, { timeout: 15_000 });
    expect(run.state).toBe('SUCCEEDED');
    const aRuns = [];
    for await (const r of a.runs.list({ limit: 100 })) aRuns.push(r);
    expect(aRuns).toHaveLength(200);
    // A's runs started after B's was created and before B's started: none. The one running then ended, and B's came next.
    const between = aRuns.filter((r) => r.started_at && r.started_at > run.created_at && r.started_at < run.started_at!);
    expect(between.map((r) => r.title)).toEqual([]);
    // A's line was not served first: nearly all of it still waits.
    expect(aRuns.filter((r) => r.state === 'QUEUED').length).toBeGreaterThan(150);
    for (const id of ids) await a.runs.cancel(id).catch(() => undefined);
  }, 30_000);
});
