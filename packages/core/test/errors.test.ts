import { describe, expect, it } from 'vitest';
import {
  APIError,
  AgentRunsError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '../src/index.js';
import { makeAPIError } from '../src/errors/api-error-factory.js';
import { parseErrorBody } from '../src/contract/error-body.js';
import { useFaultServer } from './support/use-fault-server.js';

describe('errors', () => {
  const ctx = useFaultServer({ maxRetries: 0 });

  it('maps each status to its class', () => {
    const cases: Array<[number, new (...a: never[]) => APIError]> = [
      [400, BadRequestError],
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [422, UnprocessableEntityError],
    ];
    for (const [status, Class] of cases) {
      const error = makeAPIError({ status, body: undefined, rawText: '', headers: {}, request: { method: 'GET', url: '/' }, apiKeyVariables: 'K' });
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(APIError);
      expect(error).toBeInstanceOf(AgentRunsError);
    }
  });

  it('exposes the issues of an invalid request, and none when the body has none', () => {
    const request = { method: 'POST', url: '/agent/runs' };
    const issues = [{ path: 'config.model_id', message: 'must be a string' }];
    const bad = makeAPIError({ status: 400, body: { detail: 'config.model_id: must be a string', issues }, rawText: undefined, headers: {}, request, apiKeyVariables: 'K' });
    expect(bad.issues).toEqual(issues);
    const plain = makeAPIError({ status: 400, body: { detail: 'no' }, rawText: undefined, headers: {}, request, apiKeyVariables: 'K' });
    expect(plain.issues).toEqual([]);
  });

  it('keeps the rest of a problem whose issues are malformed', () => {
    const body = parseErrorBody(JSON.stringify({ detail: 'query: bad', issues: 'not a list', trace_id: 't1' }));
    expect(body).toMatchObject({ detail: 'query: bad', trace_id: 't1' });
    expect(body?.issues).toBeUndefined();
  });

  it('exposes the problem body of a 404', async () => {
    const error = (await ctx.client.runs.get('missing').catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.status).toBe(404);
    expect(error.code).toBe('resource_not_found');
    expect(error.detail).toBe('No run missing.');
    expect(error.retryable).toBe(false);
    expect(error.headers['content-type']).toBe('application/problem+json');
    expect(error.message).toMatch(/Check the run id/);
    expect(error.missing).toBe('the run id');
  });

  it('names the id a 404 asks to check by the path it came from', () => {
    const notFound = (url: string) =>
      makeAPIError({ status: 404, body: undefined, rawText: '', headers: {}, request: { method: 'GET', url }, apiKeyVariables: 'AGENT_RUNS_API_KEY' }) as NotFoundError;
    const base = 'http://127.0.0.1:4280/api/v1';
    expect(notFound(`${base}/agent/webhooks/wh_1/deliveries`).missing).toBe('the webhook id');
    expect(notFound(`${base}/agent/webhooks/wh_1/deliveries/msg_1/redeliver`).missing).toBe('the webhook id and the delivery id');
    expect(notFound(`${base}/agent/schedules/s_1`).message).toContain('Check the schedule id and the base URL.');
    expect(notFound(`${base}/elsewhere`).missing).toBeUndefined();
  });

  it('says which variable holds the key on a 401, and never shows the key', async () => {
    const client = ctx.client.withOptions({ apiKey: 'sk-wrong-secret' });
    const error = (await client.runs.list().catch((e: unknown) => e)) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain('AGENT_RUNS_API_KEY');
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain('sk-wrong-secret');
    await client.close();
  });

  it('carries the trace id into the message', () => {
    const error = makeAPIError({
      status: 500,
      body: { title: 'Internal', detail: 'boom', trace_id: 'abc123' },
      rawText: undefined,
      headers: {},
      request: { method: 'GET', url: '/x' },
      apiKeyVariables: 'K',
    });
    expect(error.message).toContain('trace abc123');
    expect(error.traceId).toBe('abc123');
  });
});
