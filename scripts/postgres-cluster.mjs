#!/usr/bin/env node
// A throwaway PostgreSQL cluster for the tests: initdb in a new temporary directory, trust
// authentication for user `postgres`, fsync off, listening on 127.0.0.1 at a port the OS
// picks (and its socket in that directory), so it never meets another cluster on the machine.
//
//   node scripts/postgres-cluster.mjs start [--state-file <path>]
//       prints the admin URL (postgres://postgres@127.0.0.1:PORT/postgres) on stdout, one
//       line; the state file (default <dir>/cluster.json) records dir, pid and binaries
//   node scripts/postgres-cluster.mjs stop <dir or state file>
//       pg_ctl stop -m fast, then removes the directory (and the state file given)
//
// PostgreSQL refuses to run as root: as root, initdb and pg_ctl run as the `postgres` user
// (Debian's package creates it) and the directory is handed to that user.
// Node only, no dependencies: CI runs it before anything else is set up.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const INSTALL_HINT = 'Install PostgreSQL (Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql)';
const STATE_FILE = 'cluster.json';
/** pg_ctl's own wait for the server to accept connections, in seconds. */
const READY_SECONDS = 30;
/** Each child (initdb, pg_ctl) is killed past this, whatever it waits for. */
const CHILD_TIMEOUT_MS = 90_000;
const START_ATTEMPTS = 3;

// Three servers with pools of 10, several test files each with their own databases and
// servers, LISTEN connections: 300 leaves room. Small buffers keep a CI machine's memory free.
const SETTINGS = {
  listen_addresses: "'127.0.0.1'",
  max_connections: '300',
  shared_buffers: "'32MB'",
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_wal_size: "'256MB'",
  log_min_messages: 'warning',
  log_connections: 'off',
  log_disconnections: 'off',
};

class ClusterError extends Error {}

function fail(message) {
  throw new ClusterError(message);
}

function isExecutable(path) {
  try {
    return statSync(path).isFile() && (statSync(path).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

const hasServerBinaries = (dir) => isExecutable(join(dir, 'initdb')) && isExecutable(join(dir, 'pg_ctl'));

/** Where initdb and pg_ctl are: `pg_config --bindir`, the newest Debian install, or PATH. */
function findBinDir() {
  const looked = [];
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8', timeout: 10_000 });
  if (pgConfig.status === 0) {
    const dir = pgConfig.stdout.trim();
    if (hasServerBinaries(dir)) return dir;
    looked.push(`${dir} (pg_config --bindir)`);
  } else looked.push('pg_config (not found)');
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) {
      const dir = join(debianRoot, version, 'bin');
      if (hasServerBinaries(dir)) return dir;
      looked.push(dir);
    }
  }
  looked.push(`${debianRoot}/*/bin`);
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    if (hasServerBinaries(dir)) return dir;
  }
  looked.push('PATH');
  return fail(`PostgreSQL's server programs (initdb, pg_ctl) were not found; looked in ${looked.join(', ')}. ${INSTALL_HINT}.`);
}

/** The account to run PostgreSQL as when this process is root (PostgreSQL refuses root). */
function serverAccount() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const entry = spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8', timeout: 10_000 });
  const line = entry.status === 0 ? entry.stdout.trim() : readPasswdLine('postgres');
  if (!line) {
    fail(
      'running as root, and PostgreSQL refuses to run as root, but there is no `postgres` user to run it as. ' +
        `${INSTALL_HINT} (Debian's package creates the user), or create an unprivileged \`postgres\` user.`,
    );
  }
  const [, , uid, gid, , home] = line.split(':');
  return { name: 'postgres', uid: Number(uid), gid: Number(gid), home };
}

function readPasswdLine(name) {
  try {
    return readFileSync('/etc/passwd', 'utf8').split('\n').find((line) => line.startsWith(`${name}:`));
  } catch {
    return undefined;
  }
}

/** Runs a PostgreSQL program (as the account when root), bounded; returns its result. */
function runProgram(bin, program, args, account) {
  const options = { encoding: 'utf8', timeout: CHILD_TIMEOUT_MS, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } };
  if (account) {
    Object.assign(options, { uid: account.uid, gid: account.gid });
    options.env.HOME = account.home || '/';
    options.env.USER = options.env.LOGNAME = account.name;
  }
  // The child's cwd must be readable by the account: the temp directory root is.
  options.cwd = tmpdir();
  const result = spawnSync(join(bin, program), args, options);
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.error) return { ok: false, output: `${program}: ${result.error.message}\n${output}` };
  if (result.signal) return { ok: false, output: `${program} was stopped by ${result.signal} (bound ${CHILD_TIMEOUT_MS / 1000}s)\n${output}` };
  return { ok: result.status === 0, output };
}

/** A port the OS says is free on 127.0.0.1 now (another process may take it: start retries). */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function tail(text, lines = 20) {
  return text.split('\n').slice(-lines).join('\n');
}

/** The lines of a program's output that say what went wrong (initdb is chatty), else its tail. */
function problemLines(text) {
  const problems = text.split('\n').filter((line) => /error|could not|fatal|denied|no such/i.test(line));
  return problems.length ? problems.slice(-10).join('\n') : tail(text);
}

function readLog(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

async function start(stateFileArg) {
  const bin = findBinDir();
  const account = serverAccount();
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-pg-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'postgres.log');
  let started = false;
  try {
    if (account) chownSync(dir, account.uid, account.gid);
    const init = runProgram(bin, 'initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync'], account);
    if (!init.ok) {
      fail(`initdb failed in ${dataDir}${account ? ' (as the postgres user: it must be able to reach the temp directory)' : ''}:\n${problemLines(init.output)}`);
    }
    const conf = join(dataDir, 'postgresql.conf');
    const lines = Object.entries({ ...SETTINGS, unix_socket_directories: `'${dir}'` }).map(([key, value]) => `${key} = ${value}`);
    appendFileSync(conf, `\n# throwaway test cluster (scripts/postgres-cluster.mjs)\n${lines.join('\n')}\n`);

    let port;
    for (let attempt = 1; !started; attempt++) {
      port = await freePort();
      // The port goes on the command line so a retry need not rewrite the configuration.
      const run = runProgram(bin, 'pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', String(READY_SECONDS), '-o', `-p ${port}`, 'start'], account);
      if (run.ok) {
        started = true;
        break;
      }
      const log = readLog(logFile);
      const portTaken = /could not bind|Address already in use|could not create any TCP\/IP sockets/i.test(log);
      if (!portTaken || attempt >= START_ATTEMPTS) {
        fail(`PostgreSQL did not start within ${READY_SECONDS}s (port ${port}, data ${dataDir}):\n${tail(run.output, 5)}\n${tail(log)}`);
      }
      // Another process took the port between our check and PostgreSQL's bind: pick again.
      runProgram(bin, 'pg_ctl', ['-D', dataDir, 'stop', '-m', 'immediate', '-w', '-t', '10'], account);
    }
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const state = { dir, dataDir, pid, bin, port, url, user: account?.name ?? null, logFile };
    writeFileSync(join(dir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
    if (stateFileArg) writeFileSync(resolve(stateFileArg), `${JSON.stringify(state, null, 2)}\n`);
    process.stdout.write(`${url}\n`);
    process.stderr.write(`postgres-cluster: PostgreSQL (pid ${pid}) on 127.0.0.1:${port}, data in ${dir}; stop it with: node scripts/postgres-cluster.mjs stop ${dir}\n`);
  } catch (error) {
    if (started) runProgram(bin, 'pg_ctl', ['-D', dataDir, 'stop', '-m', 'immediate', '-w', '-t', '10'], account);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function readState(target) {
  const path = resolve(target);
  let file = path;
  try {
    if (statSync(path).isDirectory()) file = join(path, STATE_FILE);
  } catch {
    fail(`${target} does not exist: give the cluster's directory or its state file (as start wrote it).`);
  }
  let state;
  try {
    state = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(`cannot read the cluster's state from ${file}: ${error.message}`);
  }
  if (typeof state?.dir !== 'string' || typeof state?.dataDir !== 'string' || typeof state?.bin !== 'string') {
    fail(`${file} is not a state file written by "postgres-cluster.mjs start" (needs dir, dataDir, bin).`);
  }
  return { state, file };
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

async function stop(target) {
  if (!target) fail('stop needs the cluster\'s directory or state file: node scripts/postgres-cluster.mjs stop <dir or state file>');
  const { state, file } = readState(target);
  const account = state.user ? serverAccount() : undefined;
  let problem;
  if (existsSync(join(state.dataDir, 'postmaster.pid'))) {
    const run = runProgram(state.bin, 'pg_ctl', ['-D', state.dataDir, 'stop', '-m', 'fast', '-w', '-t', String(READY_SECONDS)], account);
    if (!run.ok) problem = run.output;
  }
  // Still running after a failed fast stop: the postmaster's pid from start, killed outright.
  if (Number.isInteger(state.pid) && state.pid > 0 && isAlive(state.pid) && problem !== undefined) {
    try {
      process.kill(state.pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
  rmSync(state.dir, { recursive: true, force: true });
  if (file !== join(state.dir, STATE_FILE)) rmSync(file, { force: true });
  if (problem !== undefined) process.stderr.write(`postgres-cluster: pg_ctl stop failed, the postmaster was killed:\n${tail(problem, 5)}\n`);
  process.stderr.write(`postgres-cluster: stopped, ${state.dir} removed\n`);
}

const USAGE = 'usage: node scripts/postgres-cluster.mjs start [--state-file <path>] | stop <dir or state file>';

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === 'start') {
    let stateFile;
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === '--state-file' && rest[i + 1]) stateFile = rest[++i];
      else fail(`unknown argument "${rest[i]}" for start. ${USAGE}`);
    }
    return start(stateFile);
  }
  if (command === 'stop') {
    if (rest.length !== 1) fail(`stop takes one argument. ${USAGE}`);
    return stop(rest[0]);
  }
  if (command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  fail(command ? `unknown command "${command}". ${USAGE}` : USAGE);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`postgres-cluster: ${error instanceof ClusterError ? error.message : error.stack}\n`);
  process.exitCode = 1;
}
