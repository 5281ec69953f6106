import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// examples/deploy: the systemd units of a server (one of several) and of a self-hosted worker, each with its environment file.
const run = promisify(execFile);
const deploy = fileURLToPath(new URL('../../examples/deploy/', import.meta.url));
const bin = (name: string) => fileURLToPath(new URL(`../../packages/server/bin/${name}.js`, import.meta.url));
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';
const hasSystemdAnalyze = existsSync(SYSTEMD_ANALYZE) && spawnSync(SYSTEMD_ANALYZE, ['--version'], { timeout: 10_000 }).status === 0;
if (!hasSystemdAnalyze) {
  console.warn('test/deploy/systemd-unit.test.ts: the systemd-analyze checks are SKIPPED (no /usr/bin/systemd-analyze; Debian: apt-get install systemd).');
}

/** `Key=value` of the [Service] section (the last one wins, as in systemd). */
function serviceSettings(text: string): Map<string, string> {
  const settings = new Map<string, string>();
  let section = '';
  for (const line of text.split('\n')) {
    const header = /^\[(\w+)\]\s*$/.exec(line);
    if (header) section = header[1]!;
    const setting = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (setting && section === 'Service') settings.set(setting[1]!, setting[2]!.trim());
  }
  return settings;
}

function seconds(text: string): number {
  const match = /^(\d+)\s*(s|min)?$/.exec(text);
  if (!match) throw new Error(`not a duration this test reads: ${text}`);
  return Number(match[1]) * (match[2] === 'min' ? 60 : 1);
}

const UNITS = [
  { unit: 'agent-runs-server.service', env: 'agent-runs.env.example', command: 'agent-runs-server', user: 'agent-runs', prefix: 'AGENT_RUNS_SERVER_' },
  { unit: 'agent-runs-worker.service', env: 'agent-runs-worker.env.example', command: 'agent-runs-worker', user: 'agent-runs-worker', prefix: 'AGENT_RUNS_WORKER_' },
] as const;

for (const { unit, env, command, user, prefix } of UNITS) {
  const unitText = readFileSync(join(deploy, unit), 'utf8');
  const envText = readFileSync(join(deploy, env), 'utf8');
  const service = serviceSettings(unitText);
  const execStart = service.get('ExecStart') ?? '';

  describe(`examples/deploy/${unit}`, () => {
    const scratch = mkdtempSync(join(tmpdir(), 'systemd-unit-test-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    /** The unit as written, but starting an executable that exists here (verify checks that). */
    async function verify(text: string): Promise<string> {
      const path = join(scratch, unit);
      writeFileSync(path, text.replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath}`));
      const { stdout, stderr } = await run(SYSTEMD_ANALYZE, ['verify', '--man=no', path], { timeout: 60_000 }).catch(
        (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
      );
      return `${stdout}${stderr}`.trim();
    }

    it.runIf(hasSystemdAnalyze)('passes systemd-analyze verify without a single complaint', async () => {
      expect(await verify(unitText)).toBe('');
    });

    it.runIf(hasSystemdAnalyze)('is checked by that verify: a misspelt kill mode is reported', async () => {
      expect(await verify(unitText.replace('KillMode=mixed', 'KillMode=mixd'))).toMatch(/kill mode/i);
    });

    it('signals only the process on stop, and waits longer than its grace for the agents', () => {
      // mixed: SIGTERM to the command, which ends its agents' groups itself; SIGKILL to the rest.
      expect(service.get('KillMode')).toBe('mixed');
      expect(seconds(service.get('TimeoutStopSec') ?? '')).toBeGreaterThan(4);
      expect(service.get('Restart')).toMatch(/^(on-failure|always)$/);
    });

    it('runs as a dedicated user, with hardening that leaves agent programs working', () => {
      expect(service.get('User')).toBe(user);
      expect(service.get('NoNewPrivileges')).toBe('yes');
      // A JIT (Node itself) needs writable executable memory; sandboxes need namespaces.
      expect(service.has('MemoryDenyWriteExecute')).toBe(false);
      expect(service.has('RestrictNamespaces')).toBe(false);
      expect(service.has('PrivateNetwork')).toBe(false);
    });

    it('keeps credentials off the command line (the environment file has them)', () => {
      expect(service.get('EnvironmentFile')).toBe(`/etc/agent-runs/${env.replace('.example', '')}`);
      expect(execStart).not.toMatch(/--database-url|--api-key|--token|\$/);
    });

    it(`passes only flags and variables ${command} accepts`, async () => {
      const { stdout: help } = await run(process.execPath, [bin(command), '--help'], { timeout: 30_000 });
      const flags = [...execStart.matchAll(/\s(--[a-z][a-z-]*)/g)].map((match) => match[1]!);
      expect(flags.length).toBeGreaterThan(0);
      const variables = [...envText.matchAll(new RegExp(`^#?\\s*(${prefix}[A-Z_]+)=`, 'gm'))].map((match) => match[1]!);
      expect(variables.length).toBeGreaterThan(0);
      const unknown = [...flags, ...variables].filter((name) => !new RegExp(`(^|[\\s,])${name}\\b`, 'm').test(help));
      expect(unknown).toEqual([]);
    });
  });
}

describe('examples/deploy/agent-runs.env.example', () => {
  it('holds the database URL and the keys', () => {
    const envText = readFileSync(join(deploy, 'agent-runs.env.example'), 'utf8');
    expect(envText).toMatch(/^AGENT_RUNS_SERVER_DATABASE_URL=postgres:\/\//m);
    expect(envText).toMatch(/^AGENT_RUNS_SERVER_API_KEYS=/m);
  });
});

describe('examples/deploy/agent-runs-worker.service', () => {
  it('outlasts the worker\'s drain before systemd kills what is left', () => {
    const service = serviceSettings(readFileSync(join(deploy, 'agent-runs-worker.service'), 'utf8'));
    const drain = /^AGENT_RUNS_WORKER_DRAIN_TIMEOUT=(\d+)m$/m.exec(readFileSync(join(deploy, 'agent-runs-worker.env.example'), 'utf8'));
    expect(drain).not.toBeNull();
    expect(seconds(service.get('TimeoutStopSec') ?? '')).toBeGreaterThan(Number(drain![1]) * 60);
  });
});
