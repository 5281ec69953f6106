import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// scripts/postgres-cluster.mjs as CI and the global set-up run it: a second cluster of its own.
const run = promisify(execFile);
const script = fileURLToPath(new URL('../../scripts/postgres-cluster.mjs', import.meta.url));
const required = process.env.AGENT_RUNS_REQUIRE_POSTGRES === '1';

interface ClusterState {
  dir: string;
  dataDir: string;
  pid: number;
  port: number;
  url: string;
}

async function cluster(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], { timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failure.code === 'number' ? failure.code : -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
  }
}

async function scalar(url: string, text: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return String(Object.values((await client.query(text)).rows[0])[0]);
  } finally {
    await client.end();
  }
}

describe('scripts/postgres-cluster.mjs', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'pg-cluster-test-'));
  const stateFile = join(scratch, 'state.json');
  let started: { code: number; stdout: string; stderr: string };
  let missing = false;

  beforeAll(async () => {
    started = await cluster('start', '--state-file', stateFile);
    missing = started.code !== 0 && /were not found/.test(started.stderr);
    if (missing && !required) console.warn(`postgres-cluster.test.ts: SKIPPED, ${started.stderr.trim()}`);
  }, 120_000);

  afterAll(async () => {
    if (existsSync(stateFile)) await cluster('stop', stateFile);
    rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('starts a cluster and prints its admin URL as the one line on stdout', async (context) => {
    if (missing && !required) context.skip();
    expect(started.stderr).not.toMatch(/postgres-cluster: (?!PostgreSQL \(pid)/);
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres\n$/);
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as ClusterState;
    expect(started.stdout.trim()).toBe(state.url);
    expect(await scalar(state.url, 'SELECT current_user')).toBe('postgres');
  });

  it('listens on loopback only, with connections for several servers and fsync off', async (context) => {
    if (missing && !required) context.skip();
    const { url } = JSON.parse(readFileSync(stateFile, 'utf8')) as ClusterState;
    expect(await scalar(url, 'SHOW listen_addresses')).toBe('127.0.0.1');
    expect(Number(await scalar(url, 'SHOW max_connections'))).toBeGreaterThanOrEqual(300);
    expect(await scalar(url, 'SHOW fsync')).toBe('off');
    expect(await scalar(url, 'SHOW server_encoding')).toBe('UTF8');
  });

  it('stops the cluster and removes its directory and the state file', async (context) => {
    if (missing && !required) context.skip();
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as ClusterState;
    const stopped = await cluster('stop', stateFile);
    expect(stopped.code).toBe(0);
    expect(existsSync(state.dir)).toBe(false);
    expect(existsSync(stateFile)).toBe(false);
    await expect(scalar(state.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('names what to give when stop is pointed at nothing', async () => {
    const result = await cluster('stop', join(scratch, 'no-such-cluster'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no-such-cluster does not exist: give the cluster's directory or its state file/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
