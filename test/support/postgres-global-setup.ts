import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { processAlive } from './process-alive.js';

/**
 * vitest's global set-up: gives the tests a PostgreSQL to create databases on, as
 * `AGENT_RUNS_TEST_DATABASE_URL` (test/support/postgres.ts reads it). A URL already set is
 * used as it is; otherwise a throwaway cluster is started with scripts/postgres-cluster.mjs
 * and stopped after the run. Without PostgreSQL the PostgreSQL tests are skipped, loudly,
 * unless `AGENT_RUNS_REQUIRE_POSTGRES=1` (CI), which makes that a failure.
 *
 * The variable is set in this (the main) process before vitest forks its workers, which
 * inherit it (`pool: 'forks'`; test/postgres/test-database.test.ts checks it arrives).
 */
const run = promisify(execFile);
const script = fileURLToPath(new URL('../../scripts/postgres-cluster.mjs', import.meta.url));
/** initdb and the start together take a second or two; the script bounds each step too. */
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 60_000;

const required = () => /^(1|true|yes)$/i.test(process.env.AGENT_RUNS_REQUIRE_POSTGRES?.trim() ?? '');

function loudWarning(reason: string): void {
  const bar = '!'.repeat(78);
  process.stderr.write(
    [
      '',
      bar,
      '!! PostgreSQL is not available: the PostgreSQL store and multi-server tests are SKIPPED.',
      `!! Reason: ${reason.split('\n').join('\n!!   ')}`,
      '!! To run them: install PostgreSQL (Debian/Ubuntu: apt-get install postgresql; macOS:',
      '!! brew install postgresql) so scripts/postgres-cluster.mjs can start a throwaway',
      '!! cluster, or set AGENT_RUNS_TEST_DATABASE_URL to an admin URL where the tests may',
      '!! create databases. AGENT_RUNS_REQUIRE_POSTGRES=1 makes this a failure (as in CI).',
      bar,
      '',
    ].join('\n'),
  );
}

/** The URL as it may be shown: without its password. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

/** A URL given by hand that does not answer is a mistake to report now, not in every test. */
async function checkGivenUrl(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(`AGENT_RUNS_TEST_DATABASE_URL (${shown(url)}) does not answer: ${(error as Error).message}. Fix or unset it (unset, the tests start a throwaway cluster).`);
  } finally {
    await client.end().catch(() => {});
  }
}

const STATE_PREFIX = 'agent-runs-pg-state-';

/**
 * Clusters of earlier runs whose vitest was killed before its teardown: their state files
 * are named after that vitest's pid, so one whose process is gone is stopped and removed.
 */
async function stopOrphans(): Promise<void> {
  const orphans = readdirSync(tmpdir()).filter((name) => {
    const pid = Number(/^agent-runs-pg-state-(\d+)-[0-9a-f]+\.json$/.exec(name)?.[1]);
    return pid > 0 && pid !== process.pid && !processAlive(pid);
  });
  for (const name of orphans) {
    await run(process.execPath, [script, 'stop', join(tmpdir(), name)], { timeout: STOP_TIMEOUT_MS }).catch(() => undefined);
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.AGENT_RUNS_TEST_DATABASE_URL;
  if (given) {
    await checkGivenUrl(given);
    return undefined;
  }
  await stopOrphans();
  const stateFile = join(tmpdir(), `${STATE_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}.json`);
  let url: string;
  try {
    const { stdout } = await run(process.execPath, [script, 'start', '--state-file', stateFile], { timeout: START_TIMEOUT_MS });
    url = stdout.trim();
    if (!/^postgres:\/\/\S+$/.test(url)) throw new Error(`scripts/postgres-cluster.mjs printed no URL (got "${url}")`);
  } catch (error) {
    const failure = error as Error & { stderr?: string };
    const reason = (failure.stderr?.trim() || failure.message).replace(/^postgres-cluster: /, '');
    if (required()) {
      throw new Error(`AGENT_RUNS_REQUIRE_POSTGRES=1, but no PostgreSQL could be started for the tests: ${reason}`);
    }
    loudWarning(reason);
    return undefined;
  }
  process.env.AGENT_RUNS_TEST_DATABASE_URL = url;
  return async () => {
    delete process.env.AGENT_RUNS_TEST_DATABASE_URL;
    try {
      await run(process.execPath, [script, 'stop', stateFile], { timeout: STOP_TIMEOUT_MS });
    } catch (error) {
      const failure = error as Error & { stderr?: string };
      process.stderr.write(`The tests' PostgreSQL cluster did not stop cleanly: ${failure.stderr?.trim() || failure.message}\n`);
    }
  };
}
