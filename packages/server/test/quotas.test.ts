import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, RateLimitError } from '@agent-runs/core';
import { startServer } from '../src/index.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';
import { writeServerConfig } from './support/server-config.js';

const ALICE = { key: 'alice-key-0123456789abcdef', principal: 'alice' };
const BOB = { key: 'bob-key-0123456789abcdef', principal: 'bob' };
const ERIN = { key: 'erin-key-0123456789abcdef', principal: 'erin' };
const CAROL = { key: 'carol-key-0123456789abcdef', principal: 'carol' };
const DAVE = { key: 'dave-key-0123456789abcdef', principal: 'dave' };

const create = (t: TestServer, key: string, headers: Record<string, string> = {}) =>
  t.raw('/api/v1/agent/runs', { method: 'POST', key, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ prompt: 'hello' }) });

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    apiKeys: [ALICE, BOB, CAROL, DAVE],
    // Runs stay in progress for the whole test, so a count held at once stays held.
    simulatedDurationMs: 60_000,
    configFile: writeServerConfig({
      quotas: {
        default: { creates_per_minute: 2 },
        principals: { carol: {}, dave: { creates_per_minute: 3 } },
      },
    }),
  });
});
afterAll(async () => t?.close());

describe('creates_per_minute', () => {
  it('answers 429 over the quota, with Retry-After and the RateLimit headers, and the problem names the quota', async () => {
    const first = await create(t, ALICE.key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // A create that went through says where the caller stands.
    expect(first.headers.get('ratelimit-policy')).toBe('"creates";q=2;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"creates";r=1;t=\d+$/);
    expect((await create(t, ALICE.key)).status).toBe(200);
    const over = await create(t, ALICE.key);
    expect(over.status).toBe(429);
    expect(over.body.type).toMatch(/rate_limited$/);
    expect(over.body.detail).toContain('creates_per_minute (2)');
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.headers.get('ratelimit-policy')).toBe('"creates";q=2;w=60');
    expect(over.headers.get('ratelimit')).toBe(`"creates";r=0;t=${retryAfter}`);
  });

  it('is thrown by the client as a RateLimitError naming the quota when it may not retry', async () => {
    const client = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: ALICE.key, maxRetries: 0 });
    const error = await client.runs.create({ prompt: 'hello' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toContain('creates_per_minute');
    expect((error as RateLimitError).headers['ratelimit-policy']).toBe('"creates";q=2;w=60');
  });

  it('holds for a follow-up to an ended run, which queues it again; not for one to a live run', async () => {
    const page = await t.raw('/api/v1/agent/runs?limit=5', { key: ALICE.key });
    const [live, ended] = page.body.runs.map((r: { run_id: string }) => r.run_id) as string[];
    const followup = (id: string) =>
      t.raw(`/api/v1/agent/runs/${id}/followups`, { method: 'POST', key: ALICE.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'more' }) });
    expect((await followup(live!)).status).toBeLessThan(300);
    expect((await t.raw(`/api/v1/agent/runs/${ended}/cancel`, { method: 'POST', key: ALICE.key })).status).toBeLessThan(300);
    const over = await followup(ended!);
    expect(over.status).toBe(429);
    expect(over.body.detail).toContain('creates_per_minute (2)');
    expect(over.headers.get('ratelimit-policy')).toBe('"creates";q=2;w=60');
  });

  it('counts down with each create, and an Idempotency-Key replayed, which stores no run, takes none', async () => {
    const remaining = (res: Awaited<ReturnType<typeof create>>) => /^"creates";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '')?.slice(1).map(Number);
    const keyed = await create(t, DAVE.key, { 'idempotency-key': 'once' });
    expect(keyed.status).toBe(200);
    const [left, reset] = remaining(keyed)!;
    expect(left).toBe(2);
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    const replayed = await create(t, DAVE.key, { 'idempotency-key': 'once' });
    expect(replayed.body.run_id).toBe(keyed.body.run_id);
    expect(remaining(replayed)?.[0]).toBe(2);
    expect(remaining(await create(t, DAVE.key))?.[0]).toBe(1);
    expect(remaining(await create(t, DAVE.key))?.[0]).toBe(0);
    expect((await create(t, DAVE.key)).status).toBe(429);
  });

  it("is each principal's own: a principal's rule replaces the default, and an empty rule is no limit", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await create(t, CAROL.key);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit')).toBeNull();
    }
  });
});

describe('runs_in_flight and runs_queued', () => {
  let held: TestServer;
  beforeAll(async () => {
    // One run at a time: bob's run holds the server, so erin's waits in the queue.
    held = await startTestServer({
      apiKeys: [BOB, ERIN],
      concurrency: 1,
      simulatedDurationMs: 60_000,
      configFile: writeServerConfig({ quotas: { principals: { bob: { runs_in_flight: 1 }, erin: { runs_queued: 1 } } } }),
    });
  });
  afterAll(async () => held?.close());

  it('answers 429 while the principal holds as many runs in progress, or queued, as its quota', async () => {
    const first = await create(held, BOB.key);
    expect(first.status).toBe(200);
    await expect.poll(async () => (await held.raw(`/api/v1/agent/runs/${first.body.run_id}`, { key: BOB.key })).body.state, { timeout: 10_000 }).toBe('INPROGRESS');
    const overFlight = await create(held, BOB.key);
    expect(overFlight.status).toBe(429);
    expect(overFlight.body.detail).toContain('runs_in_flight (1)');
    expect(overFlight.headers.get('ratelimit-policy')).toBe('"in_flight";q=1;w=0');
    expect(overFlight.headers.get('retry-after')).toBeTruthy();

    const queued = await create(held, ERIN.key);
    expect(queued.status).toBe(200);
    expect((await held.raw(`/api/v1/agent/runs/${queued.body.run_id}`, { key: ERIN.key })).body.state).toBe('QUEUED');
    const overQueue = await create(held, ERIN.key);
    expect(overQueue.status).toBe(429);
    expect(overQueue.body.detail).toContain('runs_queued (1)');
    expect(overQueue.headers.get('ratelimit')).toMatch(/^"queued";r=0;t=\d+$/);
  });
});

describe('creates racing', () => {
  const FRANK = { key: 'frank-key-0123456789abcdef', principal: 'frank' };
  const RACING = 12;
  const EXACTLY_3 = [...Array<number>(3).fill(200), ...Array<number>(RACING - 3).fill(429)];

  /**
   * The statuses of RACING creates of frank's sent at once, under `rule`, to a server of its
   * own (a fresh one: creates answered slower pile up more), on connections opened before (new
   * ones would spread the creates over time); and frank's runs after them.
   */
  async function race(rule: Record<string, number>): Promise<{ statuses: number[]; runs: { state: string }[] }> {
    // Runs are for workers, and none is connected: every run created stays queued.
    const s = await startTestServer({ apiKeys: [FRANK], workersOnly: true, configFile: writeServerConfig({ quotas: { principals: { frank: rule } } }) });
    try {
      await Promise.all(Array.from({ length: RACING }, () => s.raw('/api/v1/agent/runs?limit=1', { key: FRANK.key })));
      const statuses = (await Promise.all(Array.from({ length: RACING }, () => create(s, FRANK.key)))).map((res) => res.status).sort();
      return { statuses, runs: (await s.raw(`/api/v1/agent/runs?limit=${RACING}`, { key: FRANK.key })).body.runs };
    } finally {
      await s.close();
    }
  }

  it('lets exactly creates_per_minute of them through, each of the rest a 429', async () => {
    const { statuses, runs } = await race({ creates_per_minute: 3 });
    expect(statuses).toEqual(EXACTLY_3);
    expect(runs).toHaveLength(3);
  });

  it('lets exactly runs_queued of them through, each of the rest a 429', async () => {
    const { statuses, runs } = await race({ runs_queued: 3 });
    expect(statuses).toEqual(EXACTLY_3);
    expect(runs.map((r) => r.state)).toEqual(['QUEUED', 'QUEUED', 'QUEUED']);
  });
});

describe('the quotas: section of the configuration file', () => {
  it('refuses negative, fractional, absurd and unknown values, naming the field and the valid range', async () => {
    const cases: [unknown, RegExp][] = [
      [{ default: { runs_queued: -1 } }, /quotas\.default\.runs_queued.*a whole number from 0 to 1000000/],
      [{ default: { creates_per_minute: 1.5 } }, /quotas\.default\.creates_per_minute.*a whole number from 0 to 1000000/],
      [{ principals: { bob: { runs_in_flight: 2e6 } } }, /quotas\.principals\.bob\.runs_in_flight.*a whole number from 0 to 1000000/],
      [{ default: { spend_per_day_usd: -5 } }, /quotas\.default\.spend_per_day_usd.*a number of dollars from 0 to 1000000/],
      [{ default: { runs_per_hour: 3 } }, /quotas\.default.*runs_per_hour/],
    ];
    for (const [quotas, message] of cases) {
      const configFile = writeServerConfig({ quotas });
      await expect(startServer({ port: 0, storage: 'memory', quiet: true, configFile }), JSON.stringify(quotas)).rejects.toThrow(message);
    }
  });
});
