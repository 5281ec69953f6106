import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseServerArgs, SERVER_ENV, ServerConfigError } from '../src/index.js';

describe('agent-runs-server arguments', () => {
  it('reads every flag', () => {
    const parsed = parseServerArgs(
      ['--port', '9000', '--host', '::1', '--data-dir', 'd', '--api-key', 'ann=k1k1k1k1', '--api-key', 'k2k2k2k2', '--executor', 'command',
        '--command', 'agent run', '--command-timeout', '10m', '--concurrency', '4', '--simulated-duration', '500ms', '--max-body-bytes', '100', '--quiet'],
      {},
    );
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 9000, host: '::1', storage: 'file', dataDir: 'd', noAuth: false, quiet: true, executor: 'command', command: 'agent run',
        apiKeys: [{ principal: 'ann', key: 'k1k1k1k1' }, { principal: 'key-2', key: 'k2k2k2k2' }],
        commandTimeoutMs: 600_000, concurrency: 4, simulatedDurationMs: 500, maxBodyBytes: 100,
      },
    });
  });

  it('falls back to environment variables, flags winning', () => {
    const env = { [SERVER_ENV.port]: '7000', [SERVER_ENV.apiKeys]: 'a=aaaaaaaa, b=bbbbbbbb', [SERVER_ENV.noAuth]: 'true', [SERVER_ENV.concurrency]: '3' };
    const parsed = parseServerArgs(['--concurrency', '5'], env);
    expect(parsed.help).toBe(false);
    if (parsed.help) return;
    expect(parsed.options).toMatchObject({ port: 7000, noAuth: true, concurrency: 5, apiKeys: [{ principal: 'a' }, { principal: 'b' }] });
  });

  it('names the flag and what is valid on bad input', () => {
    expect(() => parseServerArgs(['--port', 'abc'], {})).toThrow(/--port must be a whole number/);
    expect(() => parseServerArgs(['--command-timeout', 'soon'], {})).toThrow(/--command-timeout must be a duration/);
    expect(() => parseServerArgs(['--colour'], {})).toThrow(ServerConfigError);
  });

  it('says what is wrong with a key or --no-auth in the terms typed, not the programmatic option names', () => {
    expect(() => parseServerArgs(['--api-key', 'short'], {})).toThrow('--api-key: the key is 5 characters long; an API key must have at least 8.');
    expect(() => parseServerArgs([], { [SERVER_ENV.apiKeys]: 'long-enough-key, bad' })).toThrow(
      `${SERVER_ENV.apiKeys}: the 2nd key is 3 characters long; an API key must have at least 8.`,
    );
    expect(() => parseServerArgs(['--no-auth', '--host', '0.0.0.0'], {})).toThrow(
      '--no-auth works only on a loopback --host (127.0.0.1, ::1, localhost), not "0.0.0.0"; give --api-key instead.',
    );
  });

  it('asks for help', () => {
    expect(parseServerArgs(['--help'], {})).toEqual({ help: true });
  });
});

describe('the agent-runs-server command', () => {
  const bin = fileURLToPath(new URL('../bin/agent-runs-server.js', import.meta.url));

  it('prints its flags and their environment variables with --help', () => {
    const result = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    for (const variable of Object.values(SERVER_ENV)) expect(result.stdout).toContain(variable);
  });

  it('ends with npx when npx is stopped with SIGTERM (npx does not pass the signal on)', async () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const npx = spawn('npx', ['--no-install', 'agent-runs-server', '--port', '0', '--memory'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    npx.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start: ${stderr}`)), 30_000);
      npx.stderr!.on('data', () => {
        const found = /listening on (http:\/\/[^/\s]+)/.exec(stderr);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    npx.kill('SIGTERM');
    // The server notices within about a second that npx is gone, and stops.
    const stopped = await new Promise<boolean>((resolve) => {
      const deadline = Date.now() + 10_000;
      const check = () =>
        fetch(`${url}/healthz`).then(
          () => (Date.now() > deadline ? resolve(false) : setTimeout(check, 200)),
          () => resolve(true),
        );
      check();
    });
    expect(stopped).toBe(true);
  }, 45_000);

  it('exits 2 naming a bad flag, without a stack trace', () => {
    const result = spawnSync(process.execPath, [bin, '--concurrency', 'many'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--concurrency must be a whole number');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
