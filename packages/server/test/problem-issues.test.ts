import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('problem issues', () => {
  it('names each field of an invalid body in issues, with the same words as the detail', async () => {
    const res = await t.raw('/api/v1/agent/runs', post({ prompt: 42, config: 'x' }));
    expect(res.status).toBe(400);
    const issues = res.body.issues as { path: string; message: string }[];
    expect(issues.map((issue) => issue.path).sort()).toEqual(['config', 'prompt']);
    for (const issue of issues) expect(res.body.detail).toContain(`${issue.path}: ${issue.message}`);
  });

  it('names the cursor of a list query as its own issue', async () => {
    const res = await t.raw('/api/v1/agent/runs?cursor=not-a-cursor');
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'cursor', message: expect.stringContaining('not a cursor from this server') }]);
  });

  it('names a bad Idempotency-Key header', async () => {
    const res = await t.raw('/api/v1/agent/runs', post({ prompt: 'p' }, { 'idempotency-key': ' ' }));
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'Idempotency-Key', message: 'must be 1 to 255 characters.' }]);
  });

  it('names the body when it is not JSON, and a path segment that does not decode', async () => {
    const bad = await t.raw('/api/v1/agent/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt": ' });
    expect(bad.body.issues).toEqual([{ path: 'body', message: expect.stringContaining('not valid JSON') }]);
    const segment = await t.raw('/api/v1/agent/runs/%E0%A4%A');
    expect(segment.body.issues).toEqual([{ path: 'runId', message: expect.stringContaining('not a valid URL path segment') }]);
  });

  it('sends no issues with problems that are not about the request’s fields', async () => {
    const res = await t.raw('/api/v1/agent/runs/nope');
    expect(res.status).toBe(404);
    expect(res.body.type).toContain('resource_not_found');
    expect(res.body).not.toHaveProperty('issues');
  });
});
