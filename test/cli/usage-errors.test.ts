import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// No server is needed: each of these fails before any request, or on the connection.
const offline = ['--base-url', 'http://127.0.0.1:9/api/v1'];

describe('usage and input errors exit 2 and name the flag', () => {
  it.each([
    [['run', 'x', '--colour'], /Unknown flag --colour for "run"/],
    [['run', 'x', '--timeout', 'soon'], /--timeout must be a duration such as 90s/],
    [['run', 'x', '--wait=yes'], /--wait is a switch and takes no value/],
    [['run'], /Give a prompt \(an argument, or --prompt-file\) or a --skill/],
    [['run', 'x', '--mcp', '{"gh": {}}'], /--mcp: server gh: must have exactly one of warp_id, command or url/],
    [['run', 'x', '--idle-timeout', '90'], /--idle-timeout: .*60/],
    [['run', '--prompt-file', 'nope.md'], /--prompt-file: cannot read nope\.md \(ENOENT\)/],
    [['list', '--limit', '0'], /--limit: must be an integer from 1 to 500/],
    [['list', '--state', 'DONE'], /--state: .*"SUCCEEDED"/],
    [['list', '--created-after', 'last tuesday'], /--created-after: must be an RFC 3339 timestamp/],
    [['wait', 'a', 'b'], /"wait" takes one <run-id>, got 2 arguments/],
    [['serve', '--port', '70000'], /port must be an integer from 0 to 65535/],
    [['serve', '--storage', 'memory'], /Unknown option '--storage'/],
    [['quickstart', '--duration', 'long'], /--duration must be a duration/],
    [['launch'], /Unknown command "launch"\. Commands: run, wait, get, list, cancel, serve, quickstart/],
  ])('agent-runs %j', async (args, message) => {
    const result = await runCli([...args, ...(args[0] === 'serve' || args[0] === 'quickstart' ? [] : offline)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/--help" for usage\.\n$/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('rejects a base URL that is not http(s), naming --base-url', async () => {
    const result = await runCli(['list', '--base-url', 'ftp://example.com/v1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--base-url: .*https: or http:/);
  });

  it('refuses to call a remote server without a key, saying how to give one', async () => {
    const result = await runCli(['list', '--base-url', 'https://api.example.com/api/v1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pass --api-key or set AGENT_RUNS_API_KEY');
  });
});

describe('help and version', () => {
  it('prints each command’s flags, examples and exit codes with --help, exit 0', async () => {
    for (const command of ['run', 'list', 'serve']) {
      const result = await runCli([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`agent-runs.js ${command} `);
      expect(result.stdout).toContain('Examples:');
      expect(result.stdout).toContain('3    timed out waiting');
    }
  });

  it('lists the commands with --help, and on stderr with exit 2 when no command is given', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Commands:\n\s+run /);
    const bare = await runCli([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toContain('Commands:');
  });

  it('prints the version', async () => {
    const result = await runCli(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });
});

describe('connection errors', () => {
  it('exits 4 when nothing listens at the base URL, saying what to check', async () => {
    const port = await closedPort();
    const result = await runCli(['get', 'some-run', '--base-url', `http://127.0.0.1:${port}/api/v1`]);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`Could not reach http://127.0.0.1:${port} (ECONNREFUSED)`);
    expect(result.stderr).toContain('--base-url');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
