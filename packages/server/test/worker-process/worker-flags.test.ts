import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WORKER_ENV } from '../../src/index.js';

const BIN = fileURLToPath(new URL('../../bin/agent-runs-worker.js', import.meta.url));
const TOKEN = 'wkr-secret-token-5f2b9c';

/** Runs the real `agent-runs-worker` with `args` and only the variables given (and PATH). */
function worker(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, timeout: 15_000 });
}

describe('agent-runs-worker flags', () => {
  it('lists every flag and its variable with --help', () => {
    const result = worker(['--help']);
    expect(result.status).toBe(0);
    const flags = [
      '--server', '--token-file', '--worker-host', '--concurrency', '--config', '--executor', '--command', '--command-timeout', '--harness', '--sandbox',
      '--agent-user', '--network', '--work-dir', '--agent-env', '--simulated-duration', '--drain-timeout', '--listen', '--instance-id', '--quiet', '--help',
      '--backend', '--unschedulable-timeout', '--job-listen', '--job-url', '--dispatch-command', '--cancel-command', '--dispatch-timeout', '--silence-timeout',
    ];
    for (const flag of flags) expect(result.stdout).toMatch(new RegExp(`^  ${flag}\\b`, 'm'));
    for (const variable of Object.values(WORKER_ENV)) expect(result.stdout).toContain(variable);
  });

  it('--backend kubernetes: refuses an unknown backend and a missing --job-listen, --command or kubernetes: section, naming each', () => {
    const base = ['--server', 'http://127.0.0.1:1', '--worker-host', 'box-1'];
    const env = { [WORKER_ENV.token]: TOKEN };
    const unknown = worker([...base, '--backend', 'nomad'], env);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--backend must be process, kubernetes or command, got "nomad"');
    const noListen = worker([...base, '--backend', 'kubernetes', '--command', 'true'], env);
    expect(noListen.stderr).toContain('--backend kubernetes needs --job-listen');
    const noCommand = worker([...base, '--backend', 'kubernetes', '--job-listen', '127.0.0.1:0'], env);
    expect(noCommand.stderr).toContain('--backend kubernetes needs --command');
    const dir = mkdtempSync(join(tmpdir(), 'worker-flags-'));
    const noSection = join(dir, 'worker.yaml');
    writeFileSync(noSection, 'sandbox: off\n');
    const without = worker([...base, '--backend', 'kubernetes', '--job-listen', '127.0.0.1:0', '--command', 'true', '--config', noSection], env);
    expect(without.stderr).toContain('has no kubernetes: section');
    const badSection = join(dir, 'bad.yaml');
    writeFileSync(badSection, 'kubernetes:\n  image: agent:1\n  runtime_class_name: Not_A_Name\n');
    const bad = worker([...base, '--backend', 'kubernetes', '--job-listen', '127.0.0.1:0', '--command', 'true', '--config', badSection], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('runtime_class_name');
    const everywhere = join(dir, 'ok.yaml');
    writeFileSync(everywhere, 'kubernetes:\n  image: agent:1\n');
    const noUrl = worker([...base, '--backend', 'kubernetes', '--job-listen', '0.0.0.0:0', '--command', 'true', '--config', everywhere], env);
    expect(noUrl.stderr).toContain('--job-url is required when --job-listen is on every address');
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, 'apiVersion: v1\nclusters: [oops\n');
    const badKubeconfig = worker([...base, '--backend', 'kubernetes', '--job-listen', '127.0.0.1:0', '--command', 'true', '--config', everywhere], { ...env, KUBECONFIG: kubeconfig });
    expect(badKubeconfig.stderr).toContain('the kubeconfig (KUBECONFIG) could not be read');
    for (const result of [unknown, noListen, noCommand, without, bad, noUrl, badKubeconfig]) {
      expect(result.status).toBe(2);
      expect(result.stderr).not.toContain('    at ');
    }
  }, 60_000);

  it('--backend command: refuses a missing --job-listen, --command or dispatch command, a command that is no path, and a bad dispatch: section, naming each', () => {
    const base = ['--server', 'http://127.0.0.1:9', '--worker-host', 'remote'];
    const env = { [WORKER_ENV.token]: TOKEN };
    expect(worker([...base, '--backend', 'command', '--command', 'true'], env).stderr).toContain('--backend command needs --job-listen');
    expect(worker([...base, '--backend', 'command', '--job-listen', '127.0.0.1:0'], env).stderr).toContain('--backend command needs --command');
    const listen = [...base, '--backend', 'command', '--job-listen', '127.0.0.1:0', '--command', 'true'];
    const bare = worker(listen, env);
    expect(bare.stderr).toContain('--backend command needs --dispatch-command <path> (or AGENT_RUNS_WORKER_DISPATCH_COMMAND, or dispatch.command in the configuration file)');
    expect(bare.stderr).not.toMatch(/\n\s+at /);
    expect(worker([...listen, '--dispatch-command', 'nomad'], env).stderr).toContain('--dispatch-command must be a path to a program');
    expect(worker([...listen, '--dispatch-command', '/bin/true', '--dispatch-timeout', '0s'], env).stderr).toContain('--dispatch-timeout must be longer than 0');
    const dir = mkdtempSync(join(tmpdir(), 'worker-flags-'));
    const badSection = join(dir, 'bad.yaml');
    writeFileSync(badSection, 'dispatch:\n  command: ./dispatch\n  timeout_seconds: 0\n');
    expect(worker([...listen, '--config', badSection], env).stderr).toMatch(/dispatch\.timeout_seconds/);
    expect(worker([...listen, '--dispatch-command', join(dir, 'not-there')], env).stderr).toContain(`--dispatch-command: "${join(dir, 'not-there')}" is not a program this worker may run (ENOENT).`);
    const everywhere = worker([...base, '--backend', 'command', '--job-listen', '0.0.0.0:0', '--command', 'true', '--dispatch-command', '/bin/true'], env);
    expect(everywhere.stderr).toContain('--job-url is required when --job-listen is on every address');
  }, 60_000);

  it('refuses http to a host that is not loopback, naming --server, with no stack trace', () => {
    for (const server of ['http://runs.example', 'http://10.0.0.7:8080', 'http://[2001:db8::1]/']) {
      const result = worker(['--server', server, '--worker-host', 'box-1'], { [WORKER_ENV.token]: TOKEN });
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^agent-runs-worker: --server may use http only to a loopback host/);
      expect(result.stderr).not.toContain('    at ');
      expect(result.stderr).not.toContain(TOKEN);
    }
    // The variable is read the same way.
    const fromEnv = worker(['--worker-host', 'box-1'], { [WORKER_ENV.token]: TOKEN, [WORKER_ENV.server]: 'http://runs.example' });
    expect(fromEnv.status).toBe(2);
    expect(fromEnv.stderr).toContain('--server may use http only to a loopback host');
  });

  it('refuses to start without a token, naming the variable and --token-file', () => {
    const result = worker(['--server', 'https://runs.example', '--worker-host', 'box-1']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`No worker token: set ${WORKER_ENV.token} or pass --token-file <path>.`);
    const empty = join(mkdtempSync(join(tmpdir(), 'worker-flags-')), 'token');
    writeFileSync(empty, '\n');
    const fromFile = worker(['--server', 'https://runs.example', '--worker-host', 'box-1', '--token-file', empty]);
    expect(fromFile.status).toBe(2);
    expect(fromFile.stderr).toContain('--token-file:');
    expect(fromFile.stderr).toContain('is empty');
  });

  it('takes no token as a flag (it would show in ps)', () => {
    const result = worker(['--server', 'https://runs.example', '--worker-host', 'box-1', '--token', TOKEN]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Unknown option '--token'");
  });

  it('requires --worker-host and checks what it and the other flags hold', () => {
    const env = { [WORKER_ENV.token]: TOKEN };
    const cases: [string[], string][] = [
      [['--server', 'https://runs.example'], '--worker-host is required'],
      [['--server', 'https://runs.example', '--worker-host', 'bad/host'], '--worker-host must be 1-63 letters'],
      [['--server', 'https://runs.example', '--worker-host', 'b', '--concurrency', '0'], '--concurrency must be from 1 to 256'],
      [['--server', 'https://runs.example', '--worker-host', 'b', '--drain-timeout', 'soon'], '--drain-timeout'],
      [['--server', 'https://runs.example', '--worker-host', 'b', '--listen', '9464'], '--listen must be host:port'],
      [['--server', 'https://runs.example', '--worker-host', 'b', '--sandbox', 'maybe'], '--sandbox must be auto, on or off'],
      [['--server', 'ftp://runs.example', '--worker-host', 'b'], '--server must be an https URL'],
    ];
    for (const [args, message] of cases) {
      const result = worker(args, env);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain(TOKEN);
    }
  });
});
