import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIResponseValidationError,
  ConflictError,
  InternalServerError,
  RateLimitError,
} from '../src/index.js';
import { useFaultServer } from './support/use-fault-server.js';

const isCreate = (r: { method: string; path: string }) => r.method === 'POST' && r.path.endsWith('/agent/runs');

describe('retries', () => {
  const ctx = useFaultServer({ maxRetries: 2 });

  it('retries a 500 and succeeds', async () => {
    ctx.server.inject({ kind: 'status', status: 500 });
    const created = await ctx.client.runs.create({ prompt: 'hi' }).withResponse();
    expect(created.data.state).toBe('QUEUED');
    expect(created.response.attempts).toBe(2);
  });

  it('waits as long as a 503 Retry-After in seconds asks', async () => {
    ctx.server.inject({ kind: 'status', status: 503, headers: { 'retry-after': '1' } });
    await ctx.client.runs.create({ prompt: 'hi' });
    const [first, second] = ctx.server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('honours a Retry-After given as an HTTP date', async () => {
    const at = new Date(Date.now() + 1500).toUTCString();
    ctx.server.inject({ kind: 'status', status: 429, headers: { 'retry-after': at } });
    await ctx.client.runs.create({ prompt: 'hi' });
    const [first, second] = ctx.server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(400);
  });

  it('caps a long Retry-After at maxRetryDelay', async () => {
    const client = ctx.client.withOptions({ maxRetryDelay: 50 });
    ctx.server.inject({ kind: 'status', status: 429, headers: { 'retry-after': '3600' } });
    const started = Date.now();
    await client.runs.create({ prompt: 'hi' });
    expect(Date.now() - started).toBeLessThan(1000);
    await client.close();
  });

  it('retries a 429 and a 409 marked retryable', async () => {
    ctx.server.inject({ kind: 'status', status: 429, headers: { 'retry-after-ms': '10' } });
    ctx.server.inject({
      kind: 'status',
      status: 409,
      headers: { 'retry-after-ms': '10' },
      body: { type: 'x/conflict', title: 'Conflict', status: 409, error: 'pending', retryable: true },
    });
    const { response } = await ctx.client.runs.create({ prompt: 'hi' }).withResponse();
    expect(response.attempts).toBe(3);
  });

  it('does not retry an error whose body says retryable: false', async () => {
    ctx.server.inject({
      kind: 'status',
      status: 409,
      body: { type: 'x/conflict', title: 'Conflict', status: 409, error: 'Conflict: key reused', retryable: false },
    });
    await expect(ctx.client.runs.create({ prompt: 'hi' })).rejects.toBeInstanceOf(ConflictError);
    expect(ctx.server.requests).toHaveLength(1);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    for (let i = 0; i < 3; i++) ctx.server.inject({ kind: 'status', status: 429, headers: { 'retry-after-ms': '5' } });
    await expect(ctx.client.runs.get('x')).rejects.toBeInstanceOf(RateLimitError);
    expect(ctx.server.requests).toHaveLength(3);
  });

  it('gives a RateLimitError the wait its Retry-After asked for', async () => {
    ctx.server.inject({ kind: 'status', status: 429, headers: { 'retry-after': '7' } });
    const error = await ctx.client.runs.get('x', { maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(7000);
  });

  it('takes per-request maxRetries over the client default', async () => {
    ctx.server.inject({ kind: 'status', status: 500 });
    await expect(ctx.client.runs.create({ prompt: 'hi' }, { maxRetries: 0 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(ctx.server.requests).toHaveLength(1);
  });

  it('retries a create after a reset before the server handled it, making one run', async () => {
    ctx.server.inject({ kind: 'reset-before' }, isCreate);
    await ctx.client.runs.create({ prompt: 'hi' });
    expect(ctx.server.runs).toHaveLength(1);
  });

  it('retries a create after a reset without making a second run', async () => {
    ctx.server.inject({ kind: 'reset-after' }, isCreate);
    const created = await ctx.client.runs.create({ prompt: 'hi' });
    expect(ctx.server.runs).toHaveLength(1);
    expect(created.run_id).toBe(ctx.server.runs[0]!.run_id);
    const keys = ctx.server.requests.filter(isCreate).map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('sends a different Idempotency-Key for each create', async () => {
    await ctx.client.runs.create({ prompt: 'a' });
    await ctx.client.runs.create({ prompt: 'a' });
    expect(ctx.server.runs).toHaveLength(2);
  });

  it('uses the caller’s Idempotency-Key when given', async () => {
    const a = await ctx.client.runs.create({ prompt: 'a' }, { idempotencyKey: 'k-1' });
    const b = await ctx.client.runs.create({ prompt: 'a' }, { idempotencyKey: 'k-1' });
    expect(b.run_id).toBe(a.run_id);
    expect(ctx.server.requests[0]!.headers['idempotency-key']).toBe('k-1');
  });

  it('times out a slow answer, retries, and reports a timeout when all attempts are slow', async () => {
    for (let i = 0; i < 3; i++) ctx.server.inject({ kind: 'delay', ms: 400 });
    const error = await ctx.client.runs.get('x', { timeout: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(ctx.server.requests).toHaveLength(3);
  });

  it('recovers when only the first answer is slower than the timeout', async () => {
    const created = await ctx.client.runs.create({ prompt: 'hi' });
    ctx.server.inject({ kind: 'delay', ms: 400 });
    const run = await ctx.client.runs.get(created.run_id, { timeout: 150 });
    expect(run.run_id).toBe(created.run_id);
  });

  it('reports malformed JSON on success without retrying', async () => {
    ctx.server.inject({ kind: 'status', status: 200, raw: '{"run_id": "a", ' });
    const error = await ctx.client.runs.get('a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIResponseValidationError);
    expect((error as Error).message).toMatch(/not valid JSON/);
    expect(ctx.server.requests).toHaveLength(1);
  });

  it('turns an HTML error page into a readable InternalServerError after retrying', async () => {
    const page = '<html><head><title>502</title><style>b{}</style></head><body><h1>Bad Gateway</h1></body></html>';
    for (let i = 0; i < 3; i++) ctx.server.inject({ kind: 'raw', status: 502, contentType: 'text/html', text: page, headers: { 'retry-after-ms': '1' } });
    const error = (await ctx.client.runs.get('a').catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(502);
    expect(error.body).toBeUndefined();
    expect(error.message).toContain('Bad Gateway');
    expect(error.message).not.toContain('<h1>');
  });

  it('reports a refused connection as APIConnectionError after retrying', async () => {
    const baseURL = ctx.server.baseURL;
    await ctx.server.close();
    const client = ctx.client.withOptions({ baseURL, maxRetries: 1 });
    const error = await client.runs.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    await client.close();
  });
});
