import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { nextUtcMidnight } from '../src/runs/principal-quotas.js';
import { spendingClaude, withHarnessKey } from './support/spending-claude.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';
import { writeServerConfig } from './support/server-config.js';

const ALICE = { key: 'alice-key-0123456789abcdef', principal: 'alice' };
const BOB = { key: 'bob-key-0123456789abcdef', principal: 'bob' };
/** Each message of the stand-in harness: 100,000 input tokens at Sonnet's price, $0.30. */
const MESSAGE_USD = 0.3;
const CAP_USD = 1;

const post = (t: TestServer, path: string, body: unknown, key: string) =>
  t.raw(path, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
/** A claude run that reports usage of `messages` messages of $0.30, one every 0.3 s. */
const spendingRun = (t: TestServer, key: string, messages: number) =>
  post(t, '/api/v1/agent/runs', { prompt: `MESSAGES=${messages} TOKENS=100000`, config: { harness: { type: 'claude' } } }, key);

let t: TestServer;
let alice: AgentRunsClient;
beforeAll(async () => {
  t = await withHarnessKey(() =>
    startTestServer({
      apiKeys: [ALICE, BOB],
      concurrency: 4,
      configFile: writeServerConfig({
        harnesses: { claude: spendingClaude() },
        quotas: { default: { spend_per_day_usd: CAP_USD }, principals: { bob: { spend_per_day_usd: 50, runs_in_flight: 3, creates_per_minute: 40 } } },
      }),
    }),
  );
  alice = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: ALICE.key, maxRetries: 0 });
});
afterAll(async () => {
  await alice?.close();
  await t?.close();
});

describe('spend_per_day_usd', () => {
  it("stops a run at the usage update that takes its principal's spend today to the cap: BLOCKED, naming the cap and the spend", async () => {
    // Ten messages would spend $3; the cap is reached at the fourth.
    const created = await spendingRun(t, ALICE.key, 10);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const ended = await alice.runs.wait(created.body.run_id, { timeout: 30_000 });
    expect(ended.state, JSON.stringify(ended.status_message)).toBe('BLOCKED');
    expect(ended.status_message?.error_code).toBe('budget_exceeded');
    expect(ended.status_message?.message).toMatch(/^stopped at the daily spend cap: principal alice spent \$[\d.]+ today \(UTC\) of its quota spend_per_day_usd 1, which resets at \d{4}-\d\d-\d\dT00:00:00\.000Z\./);
    const spent = ended.request_usage?.inference_cost_usd ?? 0;
    // Within one usage update of the cap: the update that reached it (which may carry two messages, come within the
    // harness's store interval) and at most one more message while its agent was being stopped; ten would be $3.
    expect(spent).toBeGreaterThanOrEqual(CAP_USD);
    expect(spent).toBeLessThanOrEqual(CAP_USD + 3 * MESSAGE_USD + 1e-9);

    // The day's count is the run's usage, counted once however often it was stored.
    const quota = await alice.quota.retrieve();
    expect(quota.spend_today.spent_usd).toBeCloseTo(spent, 9);
    expect(quota.spend_today.limit_usd).toBe(CAP_USD);
    expect(quota.spend_today.tokens).toBe(ended.request_usage?.total_tokens);
  });

  it('refuses a create and a follow-up over the cap with 402 budget_exceeded, naming the cap, the spend and the reset, with Retry-After until it', async () => {
    const before = Date.now();
    const over = await post(t, '/api/v1/agent/runs', { prompt: 'hello' }, ALICE.key);
    expect(over.status).toBe(402);
    expect(over.body.type).toMatch(/budget_exceeded$/);
    expect(over.body.retryable).toBe(false);
    const reset = nextUtcMidnight(new Date(before)).toISOString();
    expect(over.body.detail).toMatch(new RegExp(`^principal alice spent \\$[\\d.]+ today \\(UTC\\), its quota spend_per_day_usd \\(1\\); it resets at ${reset.replace(/\./g, '\\.')}, in \\d+ s\\.$`));
    const retryAfter = Number(over.headers.get('retry-after'));
    const untilReset = (Date.parse(reset) - before) / 1000;
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(untilReset) - 5);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(untilReset) + 1);

    const [blocked] = (await alice.runs.list({ limit: 1 })).runs;
    const followup = await post(t, `/api/v1/agent/runs/${blocked!.run_id}/followups`, { message: 'go on' }, ALICE.key);
    expect(followup.status).toBe(402);
    expect(followup.body.detail).toContain('spend_per_day_usd (1)');
    // Another principal's count is its own.
    expect((await post(t, '/api/v1/agent/runs', { prompt: 'hello' }, BOB.key)).status).toBe(200);
  });

  it("answers GET /agent/quota with the caller's quotas and use: in flight and queued, creates in the last minute, spend today and its reset", async () => {
    const now = Date.now();
    const res = await t.raw('/api/v1/agent/quota', { key: BOB.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      principal: 'bob',
      runs_in_flight: { limit: 3 },
      runs_queued: { used: 0, limit: null },
      creates_per_minute: { used: 1, limit: 40 },
      spend_today: { day: new Date(now).toISOString().slice(0, 10), spent_usd: 0, tokens: 0, limit_usd: 50, resets_at: nextUtcMidnight(new Date(now)).toISOString() },
    });
    expect(res.body.runs_in_flight.used).toBeLessThanOrEqual(1);
    expect(res.body.creates_per_minute.resets_in_seconds).toBeGreaterThanOrEqual(1);
    expect(res.body.creates_per_minute.resets_in_seconds).toBeLessThanOrEqual(60);
    expect((await t.raw('/api/v1/agent/quota?x=1', { key: BOB.key })).status).toBe(400);
    expect((await t.raw('/api/v1/agent/quota', { key: null })).status).toBe(401);
  });
});

describe('spend_per_day_usd, a run queued before the cap was reached', () => {
  let one: TestServer;
  beforeAll(async () => {
    // One run at a time: the second waits in the queue while the first spends the day's cap.
    one = await withHarnessKey(() =>
      startTestServer({ apiKeys: [ALICE], concurrency: 1, configFile: writeServerConfig({ harnesses: { claude: spendingClaude() }, quotas: { default: { spend_per_day_usd: CAP_USD } } }) }),
    );
  });
  afterAll(async () => one?.close());

  it('is BLOCKED as it would start, its agent never started', async () => {
    const spending = await spendingRun(one, ALICE.key, 10);
    const queued = await post(one, '/api/v1/agent/runs', { prompt: 'MESSAGES=1 TOKENS=1000', config: { harness: { type: 'claude' } } }, ALICE.key);
    expect(queued.status).toBe(200);
    const client = new AgentRunsClient({ baseURL: one.server.baseURL, apiKey: ALICE.key, maxRetries: 0 });
    try {
      expect((await client.runs.wait(spending.body.run_id, { timeout: 30_000 })).state).toBe('BLOCKED');
      const second = await client.runs.wait(queued.body.run_id, { timeout: 30_000 });
      expect(second.state).toBe('BLOCKED');
      expect(second.status_message?.message).toContain('stopped at the daily spend cap');
      expect(second.request_usage).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});

describe('the spend_per_day_usd of the configuration file', () => {
  it('refuses negative, non-numeric and absurd caps, naming the field and the valid range', async () => {
    const { startServer } = await import('../src/index.js');
    const cases: [unknown, RegExp][] = [
      [{ default: { spend_per_day_usd: -1 } }, /quotas\.default\.spend_per_day_usd.*a number of dollars from 0 to 1000000/],
      [{ default: { spend_per_day_usd: 'ten' } }, /quotas\.default\.spend_per_day_usd.*a number of dollars from 0 to 1000000/],
      [{ principals: { bob: { spend_per_day_usd: 1e9 } } }, /quotas\.principals\.bob\.spend_per_day_usd.*a number of dollars from 0 to 1000000/],
    ];
    for (const [quotas, message] of cases) {
      const configFile = writeServerConfig({ quotas });
      await expect(startServer({ port: 0, storage: 'memory', quiet: true, configFile }), JSON.stringify(quotas)).rejects.toThrow(message);
    }
  });
});
