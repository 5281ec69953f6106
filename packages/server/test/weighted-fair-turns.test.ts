import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer } from '../src/index.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';
import { writeServerConfig } from './support/server-config.js';

/**
 * Weighted fair turns on one server (on PostgreSQL too in CI's PostgreSQL pass): A of weight 2
 * and B of weight 1 each queue 20 runs on a server that runs one at a time; A is started twice
 * for B's once.
 */
const A = { key: 'weighted-a-key-0123456789', principal: 'a' };
const B = { key: 'weighted-b-key-0123456789', principal: 'b' };
let t: TestServer;
let a: AgentRunsClient;
let b: AgentRunsClient;
beforeAll(async () => {
  t = await startTestServer({ concurrency: 1, apiKeys: [A, B], configFile: writeServerConfig({ fair_turns: { weights: { a: 2 } } }) });
  a = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: A.key, maxRetries: 0 });
  b = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: B.key, maxRetries: 0 });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await t?.close();
});

describe('weighted fair turns', () => {
  it('starts A (weight 2) twice for B (weight 1) once: A,A,B,A,A,B…', async () => {
    // A's first run holds the one slot while the rest are queued, so every other run waits in line.
    const first = await a.runs.create({ prompt: 'A 0 [simulate 3000ms]' });
    for (let i = 1; i < 20; i++) await a.runs.create({ prompt: `A ${i} [simulate 20ms]` });
    for (let i = 0; i < 20; i++) await b.runs.create({ prompt: `B ${i} [simulate 20ms]` });
    const started = await a.runs.get(first.run_id);
    expect(started.state, 'the first run was still running as the others were queued').toBe('INPROGRESS');
    const all = [];
    for (const client of [a, b]) {
      for await (const run of client.runs.list({ limit: 100 })) all.push(await client.runs.wait(run.run_id, { timeout: 30_000 }));
    }
    const order = all
      .sort((x, y) => (x.started_at! < y.started_at! ? -1 : 1))
      .map((run) => run.title.slice(0, 1))
      .join('');
    // A's first, then turn after turn two of A's and one of B's, until A's line ends.
    expect(order).toBe('A' + 'AAB'.repeat(9) + 'AB' + 'B'.repeat(10));
  }, 60_000);
});

describe('the fair_turns: section of the configuration file', () => {
  it('refuses a weight of 0, negative, fractional or not a number, naming the field and the valid range', async () => {
    for (const weight of [0, -2, 1.5, 'two', 1001]) {
      const configFile = writeServerConfig({ fair_turns: { weights: { alice: weight } } });
      await expect(startServer({ port: 0, storage: 'memory', quiet: true, configFile }), String(weight)).rejects.toThrow(/fair_turns\.weights\.alice.*a whole number from 1 to 1000/);
    }
  });
});
