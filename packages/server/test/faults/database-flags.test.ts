import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/agent-runs-server.js', import.meta.url));
const serve = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [BIN, '--port', '0', ...args], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, ...env } });

describe('--database-url', () => {
  it('refuses a URL that is not PostgreSQL, without echoing it (it may hold a password)', () => {
    const result = serve(['--database-url', 'mysql://admin:s3cret-pass@db/x', '--api-key', 'db-key-12345678']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--database-url.*PostgreSQL URL such as postgres:\/\//);
    expect(result.stderr).not.toContain('s3cret-pass');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('wants the API keys every server accepts: a generated key would differ between servers', () => {
    const result = serve([], { AGENT_RUNS_SERVER_DATABASE_URL: 'postgres://runs:s3cret-pass@127.0.0.1:1/runs' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--api-key or AGENT_RUNS_SERVER_API_KEYS/);
    expect(result.stderr).not.toContain('s3cret-pass');
  });

  it('names the database it cannot reach without its password, and what to check', () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const result = serve(['--database-url', 'postgres://runs:s3cret-pass@127.0.0.1:1/runs', '--api-key', 'db-key-12345678']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/Cannot connect to the PostgreSQL database .*127\.0\.0\.1:1.*check that the server is running/s);
    expect(result.stderr).not.toContain('s3cret-pass');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('takes --lease as a duration and names the flag when it is not one', () => {
    const result = serve(['--database-url', 'postgres://127.0.0.1:1/runs', '--api-key', 'db-key-12345678', '--lease', 'soon']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--lease/);
  });
});
