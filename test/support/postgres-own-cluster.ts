import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/postgres-cluster.mjs', import.meta.url));

/** A throwaway cluster of one test's own, which the test may stop and start again (an outage). */
export interface OwnCluster {
  url: string;
  /**
   * Stops the postmaster: `fast` (the default) cuts connections after telling them why,
   * `immediate` kills every backend with no word (a crash, recovered at the next start).
   * Commits are kept, as the test cluster does not sync them.
   */
  stop(mode?: 'fast' | 'immediate'): void;
  /** Starts it again on the same port. */
  start(): void;
  /** Stops it and removes its directory. */
  remove(): void;
  /**
   * Makes a commit durable before it is acknowledged (the test clusters do not wait for the
   * log by default), so an `immediate` stop loses nothing a client was told was committed.
   */
  durableCommits(): void;
}

interface ClusterState {
  dir: string;
  dataDir: string;
  bin: string;
  port: number;
  url: string;
  user: string | null;
  logFile: string;
}

/** The account PostgreSQL runs as when the tests run as root (it refuses root). */
function account(user: string | null): { uid: number; gid: number } | undefined {
  if (!user) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${user}:`))!;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export function startOwnCluster(): OwnCluster {
  const stateFile = join(mkdtempSync(join(tmpdir(), 'agent-runs-own-pg-')), 'state.json');
  const started = spawnSync(process.execPath, [SCRIPT, 'start', '--state-file', stateFile], { encoding: 'utf8', timeout: 120_000 });
  if (started.status !== 0) throw new Error(`The cluster did not start:\n${started.stderr}`);
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as ClusterState;
  const pgCtl = (args: string[]) => {
    const result = spawnSync(join(state.bin, 'pg_ctl'), ['-D', state.dataDir, ...args], {
      encoding: 'utf8',
      timeout: 60_000,
      cwd: tmpdir(),
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
      ...account(state.user),
    });
    if (result.status !== 0) throw new Error(`pg_ctl ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  };
  return {
    url: state.url,
    stop: (mode = 'fast') => pgCtl(['stop', '-m', mode, '-w', '-t', '30']),
    start: () => pgCtl(['-l', state.logFile, '-w', '-t', '30', '-o', `-p ${state.port}`, 'start']),
    durableCommits: () => {
      appendFileSync(join(state.dataDir, 'postgresql.conf'), 'synchronous_commit = on\n');
      pgCtl(['reload']);
    },
    remove: () => void spawnSync(process.execPath, [SCRIPT, 'stop', stateFile], { timeout: 60_000 }),
  };
}
