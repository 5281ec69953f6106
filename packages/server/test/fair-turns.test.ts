import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectNextAfterAnothersLongLine } from '../../../test/support/fair-turns.js';
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
    await expectNextAfterAnothersLongLine(a, b);
  }, 30_000);
});
