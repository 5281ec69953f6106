import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT_MAX_CHARS, REQUEST_BODY_MAX_BYTES } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';
import { rawRequest } from '../support/raw-http.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ storage: 'memory', quiet: true, simulatedDurationMs: 10 });
});
afterAll(() => server.close());

const create = (body: string) =>
  rawRequest(`${server.baseURL}/agent/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body,
  });

describe('the prompt size limit', () => {
  it('refuses a prompt one character over the limit with a 400 naming prompt and the limit', async () => {
    const res = await create(JSON.stringify({ prompt: 'x'.repeat(PROMPT_MAX_CHARS + 1) }));
    expect(res.status).toBe(400);
    expect(res.json.detail).toContain(`prompt: must be at most ${PROMPT_MAX_CHARS} characters`);
  });

  it('takes a prompt of exactly the limit', async () => {
    const res = await create(JSON.stringify({ prompt: 'x'.repeat(PROMPT_MAX_CHARS) }));
    expect(res.status).toBe(200);
  });

  it('takes the longest prompt under the default body limit even with every character escaped', async () => {
    const body = `{"prompt":"${'\\u00e9'.repeat(PROMPT_MAX_CHARS)}"}`;
    expect(Buffer.byteLength(body)).toBeLessThan(REQUEST_BODY_MAX_BYTES);
    const res = await create(body);
    expect(res.status).toBe(200);
    const run = await rawRequest(`${server.baseURL}/agent/runs/${res.json.run_id}`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(run.json.prompt).toHaveLength(PROMPT_MAX_CHARS);
  });

  it('documents the limit in the OpenAPI document', async () => {
    const doc = (await rawRequest(`${server.baseURL}/openapi.json`)).json;
    expect(JSON.stringify(doc)).toContain(`at most ${PROMPT_MAX_CHARS} characters`);
  });
});
