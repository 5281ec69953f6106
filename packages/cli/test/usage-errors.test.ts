import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { main } from '@agent-runs/cli';
import { runCli } from './support/cli-process.js';
import { capturingIo } from './support/in-process-io.js';

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

// The built command's main() in this process: the same code as the binary, without a
// process start per case. The child-process tests below pin the real exit status.
describe('usage and input errors exit 2 and name the flag', () => {
  it.each([
    [['run', 'x', '--colour'], /Unknown flag --colour for "run"/],
    [['run', 'x', 'y', '--prompt-file', 'task.md'], /either as an argument or with --prompt-file, not both/],
    [['run', 'x', '--timeout', 'soon'], /--timeout must be a duration such as 90s/],
    [['run', 'x', '--wait=yes'], /--wait is a switch and takes no value/],
    [['run'], /Give a prompt \(an argument, or --prompt-file\) or a --skill/],
    [['run', 'x', '--mcp', '{"gh": {}}'], /--mcp: server gh: must have exactly one of warp_id, command or url/],
    [['run', 'x', '--idle-timeout', '90'], /--idle-timeout must be a whole number of minutes from 1 to 60, got "90"/],
    [['run', 'x', '--idle-timeout', '0'], /--idle-timeout must be a whole number of minutes from 1 to 60, got "0"/],
    [['run', '--prompt-file', 'nope.md'], /--prompt-file: cannot read nope\.md \(ENOENT\)/],
    [['list', '--limit', '0'], /--limit: must be an integer from 1 to 500/],
    [['list', '--state', 'DONE'], /--state: must be one of QUEUED, .*SUCCEEDED/],
    [['list', '--created-after', 'last tuesday'], /--created-after: must be an RFC 3339 timestamp/],
    [['wait', 'a', 'b'], /"wait" takes one <run-id>, got 2 arguments/],
    [['serve', '--port', '70000'], /port must be an integer from 0 to 65535/],
    [['serve', '--storage', 'memory'], /Unknown option '--storage'/],
    [['quickstart', '--duration', 'long'], /--duration must be a duration/],
    [['worker', '--server', 'http://10.0.0.1', '--worker-host', 'b'], /--server may use http only to a loopback host .*not "10\.0\.0\.1"/],
    [['worker', '--server', 'https://runs.example', '--worker-host', 'b'], /No worker token: set AGENT_RUNS_WORKER_TOKEN or pass --token-file <path>/],
    [['launch'], /Unknown command "launch"\. Commands: run, wait, get, tree, logs, list, cancel, followup, conversation, artifacts, download, schedules, webhooks, environments, models, skills, agents, workers, quota, serve, worker, quickstart/],
    [['list', '--base-url', 'ftp://example.com/v1'], /--base-url: .*https: or http:/],
    [['list', '--base-url', 'https://api.example.com/api/v1'], /No API key for .*: pass --api-key or set AGENT_RUNS_API_KEY/],
  ])('agent-runs %j', async (args, message) => {
    const { io, out } = capturingIo();
    const ownTarget = args[0] === 'serve' || args[0] === 'worker' || args[0] === 'quickstart' || args.includes('--base-url');
    const code = await main([...args, ...(ownTarget ? [] : offline)], { io });
    expect(code).toBe(2);
    expect(out.stderr).toMatch(message);
    expect(out.stderr).toMatch(/--help" for usage\.\n$/);
    expect(out.stdout).toBe('');
  });

  it('exits 2 from the real process for a bad flag, with no stack trace', async () => {
    const result = await runCli(['list', '--colour', ...offline]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: Unknown flag --colour for "list"\.\nRun "node \S*agent-runs\.js list --help" for usage\.\n$/);
  });
});

describe('help and version', () => {
  it('prints each command’s flags, examples and exit codes with --help, exit 0', async () => {
    for (const command of ['run', 'list']) {
      const result = await runCli([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`agent-runs.js ${command} `);
      expect(result.stdout).toContain('Examples:');
      expect(result.stdout).toContain('3    timed out waiting');
    }
  });

  it('lists the commands with --help, and on stderr with exit 2 when no command is given', async () => {
    const help = capturingIo();
    expect(await main(['--help'], { io: help.io })).toBe(0);
    expect(help.out.stdout).toMatch(/Commands:\n\s+run /);
    const bare = capturingIo();
    expect(await main([], { io: bare.io })).toBe(2);
    expect(bare.out.stdout).toBe('');
    expect(bare.out.stderr).toContain('Commands:');
  });

  it('prints the version', async () => {
    const { io, out } = capturingIo();
    expect(await main(['--version'], { io })).toBe(0);
    expect(out.stdout).toBe('0.1.0\n');
  });

  it('shows the server’s own flags in serve --help', async () => {
    const { io, out } = capturingIo();
    expect(await main(['serve', '--help'], { io })).toBe(0);
    expect(out.stdout).toContain('Usage: agent-runs serve');
    expect(out.stdout).toContain('--simulated-duration');
  });

  it('shows the worker’s own flags in worker --help', async () => {
    const { io, out } = capturingIo();
    expect(await main(['worker', '--help'], { io })).toBe(0);
    expect(out.stdout).toContain('Usage: agent-runs worker');
    for (const flag of ['--server', '--token-file', '--worker-host', '--drain-timeout', '--listen', '--command']) expect(out.stdout).toContain(flag);
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
