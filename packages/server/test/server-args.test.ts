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

  it('asks for help', () => {
    expect(parseServerArgs(['--help'], {})).toEqual({ help: true });
  });
});
