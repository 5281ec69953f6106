import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

const BIN = fileURLToPath(new URL('../../bin/agent-runs-server.js', import.meta.url));

describe('API JSON answers', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  // Reproduction: a run whose prompt is HTML, read back as JSON and as a problem.
  it('carry X-Content-Type-Options: nosniff, answers and problems alike', async () => {
    const { run_id } = await t.client.runs.create({ prompt: '<script>alert(1)</script> [simulate 10ms]' });
    const answers = [
      await t.raw(`/api/v1/agent/runs/${run_id}`),
      await t.raw('/api/v1/agent/runs'),
      await t.raw('/api/v1/agent/runs/no-such-run'),
      await t.raw('/api/v1/agent/runs', { key: null }),
      await t.raw('/healthz', { key: null }),
    ];
    for (const res of answers) expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answers.map((res) => res.status)).toEqual([200, 200, 404, 401, 200]);
  });
});

describe('a database URL with sslpassword', () => {
  it('never shows the sslpassword when the database cannot be reached', () => {
    // Port 1 on loopback: nothing listens, so the server names the database it could not reach.
    const url = 'postgres://runs@127.0.0.1:1/runs?sslmode=disable&sslpassword=key-pass-Secr3t&PASSWORD=other-Secr3t';
    const result = spawnSync(process.execPath, [BIN, '--port', '0', '--database-url', url, '--api-key', 'db-key-12345678'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/Cannot connect to the PostgreSQL database .*127\.0\.0\.1:1/s);
    expect(result.stderr).not.toContain('Secr3t');
  });
});
