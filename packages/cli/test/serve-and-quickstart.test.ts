import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runCli, stderrIncludes } from './support/cli-process.js';

async function refused(url: string): Promise<boolean> {
  try {
    await request(url, { headersTimeout: 2000 });
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'ECONNREFUSED';
  }
}

describe('serve', () => {
  it('starts the local server, answers /healthz and runs, and stops on Ctrl-C with exit 0', async () => {
    let url = '';
    let health = 0;
    let listed = 0;
    const result = await runCli(['serve', '--port', '0', '--memory', '--api-key', 'tester=serve-test-key-123'], {
      onSpawn(child) {
        let seen = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
        });
        void stderrIncludes(child, 'Press Ctrl-C to stop.').then(async () => {
          url = /listening on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(seen)![1]!;
          health = (await request(`${url}/healthz`)).statusCode;
          const listing = await request(`${url}/api/v1/agent/runs`, {
            headers: { authorization: 'Bearer serve-test-key-123' },
          });
          listed = listing.statusCode;
          await listing.body.dump();
          child.kill('SIGINT');
        });
      },
    });
    expect(health).toBe(200);
    expect(listed).toBe(200);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`--base-url ${url}/api/v1`);
    expect(result.stderr).not.toContain('serve-test-key-123');
    expect(await refused(`${url}/healthz`)).toBe(true);
  });
});

describe('serve without a configured key', () => {
  it('prints no key when the port is in use, and the "Try it" line says where the key is', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-serve-key-'));
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const busy = await runCli(['serve', '--port', String(port), '--data-dir', dataDir]);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain('Cannot listen on 127.0.0.1');
      expect(busy.stderr).not.toMatch(/arl_|generated one/);

      const result = await runCli(['serve', '--port', '0', '--data-dir', dataDir], {
        onSpawn(child) {
          let seen = '';
          child.stderr!.on('data', (chunk: Buffer) => (seen += chunk.toString()));
          // Stopped once it answers, as a person would after reading the lines.
          void stderrIncludes(child, 'Press Ctrl-C to stop.').then(async () => {
            const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(seen)![1]!;
            await (await request(`${url}/healthz`)).body.dump();
            child.kill('SIGINT');
          });
        },
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`--api-key "$(cat ${join(dataDir, 'api-key')})" run "Hello" --wait`);
      expect(result.stderr).not.toContain('<a key of this server>');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('quickstart', () => {
  it('runs one demo run end to end, prints the session link and the final run, exits 0 and leaves nothing running', async () => {
    const started = Date.now();
    const result = await runCli(['quickstart', '--duration', '300ms'], { timeoutMs: 15_000 });
    expect(result.code).toBe(0);
    expect(result.signal).toBeNull();
    expect(result.stdout).toMatch(/^\nRun \S+ succeeded\.\n/);
    const session = /Session\s+(http:\/\/127\.0\.0\.1:(\d+)\/\S+)/.exec(result.stdout);
    expect(session).not.toBeNull();
    const final = JSON.parse(result.stdout.slice(result.stdout.indexOf('\n{') + 1));
    expect(final).toMatchObject({ state: 'SUCCEEDED', source: 'CLI', session_link: session![1] });
    expect(result.stderr).toMatch(/^run \S+: SUCCEEDED/m);
    expect(result.stderr).toContain('export AGENT_RUNS_API_KEY=<your API key>');
    expect(result.stderr).toContain('Local server stopped; nothing is left running.');
    expect(result.stdout + result.stderr).not.toMatch(/quickstart_[\w-]{10,}/);
    // The process ended on its own (no lingering handle), and its server with it.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await refused(session![1]!)).toBe(true);
  });

  it('exits 1 when the demo run fails, and prints only JSON with --json', async () => {
    const result = await runCli(['quickstart', '--prompt', 'Break [simulate fail 100ms]', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ state: 'FAILED' });
    expect(result.stderr).toBe('');
  });
});
