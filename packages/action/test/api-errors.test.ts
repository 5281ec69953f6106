import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from './support/loopback-recorder.js';
import { runStep } from './support/runner.js';

// Statuses the local server does not give on demand come from a stand-in that answers every request with one problem.
const KEY = 'sk-stand-in-4411';
let status = 500;
let api: Awaited<ReturnType<typeof startRecorder>>;
beforeAll(async () => {
  api = await startRecorder(() => ({
    status,
    headers: (status === 429 ? { 'retry-after': '0' } : {}) as Record<string, string>,
    body: {
      type: `https://docs.warp.dev/reference/api-and-sdk/troubleshooting/errors/${CODES[status]}`,
      title: TITLES[status],
      status,
      detail: `detail for ${status}`,
      trace_id: 'trace-77',
    },
  }));
});
afterAll(() => api.close());

const CODES: Record<number, string> = { 403: 'not_authorized', 429: 'rate_limited', 503: 'resource_unavailable' };
const TITLES: Record<number, string> = { 403: 'Forbidden', 429: 'Too many requests', 503: 'Unavailable' };

describe('API errors say what to check', () => {
  const cases: Array<[number, RegExp]> = [
    [403, /^The API key may not do this \(403\)\. The server said: detail for 403\. Check the key's team and that it may use the "environment", "skill" and "mcp-servers" you named\.$/],
    [429, /^Rate limited \(429\) by http:\/\/127\.0\.0\.1:\d+\/api\/v1; it asked to wait 0s\. Re-run the job later, or start fewer runs at once\.$/],
    [503, /^The service at http:\/\/127\.0\.0\.1:\d+\/api\/v1 had a problem \(503\)\. The server said: detail for 503\. Trace id trace-77\. This is usually temporary: re-run the job\.$/],
  ];

  it.each(cases)('fails on a %i answer with a message that says what to check', async (code, message) => {
    status = code;
    const step = await runStep({ inputs: { prompt: 'x', 'api-key': KEY, 'base-url': `${api.url}/api/v1` } });
    expect(step.code).toBe(1);
    expect(step.error).toMatch(message);
    expect(step.stdout.replace(/^::add-mask::.*$/m, '')).not.toContain(KEY);
    expect(step.stdout).not.toMatch(/^::error::.*\n\s+at /m);
  });
});
