import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@agent-runs/server';
import { BIN, binEnv, connectStdio, startRunsApi, textOf } from './support/mcp-harness.js';

let api: RunningServer;

beforeAll(async () => {
  api = await startRunsApi();
});

afterAll(async () => {
  await api?.close();
});

function runBin(args: string[], env: Record<string, string> = binEnv(undefined)) {
  return spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 10_000 });
}

describe('agent-runs-mcp command line', () => {
  it('prints help naming every flag and the environment variables', () => {
    const { status, stdout } = runBin(['--help']);
    expect(status).toBe(0);
    for (const flag of ['--http', '--port', '--host', '--auth-token', '--read-only', '--base-url', '--api-key', '--heartbeat']) {
      expect(stdout).toContain(flag);
    }
    expect(stdout).toContain('AGENT_RUNS_API_KEY');
    expect(stdout).toContain('AGENT_RUNS_BASE_URL');
  });

  it('prints the package version', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(runBin(['--version']).stdout.trim()).toBe(manifest.version);
  });

  it('refuses an unknown flag in one line on stderr, with exit code 2', () => {
    const { status, stdout, stderr } = runBin(['--verbose']);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain("Unknown option '--verbose'");
    expect(stderr).toContain('--help');
  });

  it('refuses HTTP-only flags without --http, and a bad base URL, naming them', () => {
    expect(runBin(['--port', '4000']).stderr).toContain('--port applies only with --http');
    const bad = runBin(['--base-url', 'not a url']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('baseURL must be an absolute http(s) URL');
    expect(bad.stderr).not.toContain('    at ');
  });
});

describe('without an API key', () => {
  it('starts without a warning for a loopback server, and tool calls name the variable to set', async () => {
    const session = await connectStdio(binEnv(undefined, { AGENT_RUNS_BASE_URL: api.baseURL }));
    try {
      const result = await session.client.callTool({ name: 'list_runs', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('401');
      expect(textOf(result)).toContain('AGENT_RUNS_API_KEY');
      expect(session.stderr()).toBe('');
    } finally {
      await session.close();
    }
  });

  it('warns once on stderr, naming the variable, for a server on another machine', async () => {
    const remote = 'https://runs.example.invalid/api/v1';
    const session = await connectStdio(binEnv(undefined, { AGENT_RUNS_BASE_URL: remote }));
    try {
      await expect.poll(() => session.stderr(), { timeout: 10_000 }).toContain('AGENT_RUNS_API_KEY');
      expect(session.stderr()).toMatch(/^agent-runs-mcp: No API key for https:\/\/runs\.example\.invalid\/api\/v1: pass --api-key or set AGENT_RUNS_API_KEY/);
      expect(session.stderr().trim().split('\n')).toHaveLength(1);
    } finally {
      await session.close();
    }
  });
});

describe('stdio', () => {
  it('writes nothing but protocol messages to stdout, even with debug logging on', async () => {
    const child = spawn(process.execPath, [BIN], {
      env: binEnv(api, { AGENT_RUNS_LOG: 'debug' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_runs', arguments: {} } });
    await expect.poll(() => stdout.split('\n').filter(Boolean).length, { timeout: 10_000 }).toBe(2);
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
    for (const line of stdout.split('\n').filter(Boolean)) {
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    }
    // The debug lines went to stderr instead, with the key redacted.
    expect(stderr).toContain('GET');
    expect(stderr).not.toContain(api.apiKey);
  });

  it('exits when the host closes its stdin', async () => {
    const child = spawn(process.execPath, [BIN], { env: binEnv(api), stdio: ['pipe', 'ignore', 'ignore'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});

describe("Node's compile cache", () => {
  // The launcher turns it on; the other tests start the bundle itself.
  const LAUNCHER = fileURLToPath(new URL('../bin/agent-runs-mcp.js', import.meta.url));
  const launch = (xdgCacheHome: string) =>
    spawnSync(process.execPath, [LAUNCHER, '--version'], { env: { ...binEnv(undefined), XDG_CACHE_HOME: xdgCacheHome }, encoding: 'utf8', timeout: 10_000 });
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  const hasCache = major > 22 || (major === 22 && minor >= 1);

  it.runIf(hasCache)("keeps the compiled bundle in the user's cache directory, not in the shared temp directory", () => {
    const home = mkdtempSync(join(tmpdir(), 'agent-runs-mcp-cache-'));
    try {
      expect(launch(home).status).toBe(0);
      const dir = join(home, 'agent-runs-mcp', 'compile-cache');
      expect(existsSync(dir)).toBe(true);
      // One directory per Node version, holding the bundle's compiled code.
      expect(readdirSync(dir).flatMap((version) => readdirSync(join(dir, version))).length).toBeGreaterThan(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('starts and answers when the cache directory cannot be used', () => {
    const home = mkdtempSync(join(tmpdir(), 'agent-runs-mcp-cache-'));
    try {
      // A file where the directory would be.
      writeFileSync(join(home, 'agent-runs-mcp'), '');
      const { status, stdout } = launch(home);
      expect(status).toBe(0);
      expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
