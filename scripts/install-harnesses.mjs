#!/usr/bin/env node
// The three harness CLIs the tests drive, at pinned versions, each in a directory of its own
// under a cache outside the workspace packages: the product never depends on or ships them.
//
//   node scripts/install-harnesses.mjs [claude|codex|gemini ...]
//       installs what is missing (all three by default) and prints one JSON line:
//       { "claude": "<path of its executable>", ... }
//
// The download is cached in $XDG_CACHE_HOME/agent-runs/harnesses, else
// ~/.cache/agent-runs/harnesses (where CI keeps its cache). The CLIs run from
// $AGENT_RUNS_HARNESS_CACHE when set, else, for root, from /var/cache/agent-runs/harnesses,
// hard links to the home cache made readable by every user (a root server runs its agents
// as other uids, which must start the CLI without a sandbox binding it in, and root's home
// is 0700), else from the home cache itself. A harness whose marker file names its pinned
// version is taken as installed without asking npm anything, so a cached run takes
// milliseconds. Node only, no dependencies.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The pinned versions: one place to move them. */
export const HARNESS_PACKAGES = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.330', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
};

const INSTALL_TIMEOUT_MS = 15 * 60_000;
const MARKER = 'agent-runs-installed.json';

/** A root machine's cache: outside root's home (mode 0700), so the agent users can reach it. */
const SHARED_CACHE = '/var/cache/agent-runs/harnesses';

function homeCacheDir(env) {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'agent-runs', 'harnesses');
}

export function harnessCacheDir(env = process.env, uid = process.getuid?.()) {
  if (env.AGENT_RUNS_HARNESS_CACHE) return env.AGENT_RUNS_HARNESS_CACHE;
  return uid === 0 ? SHARED_CACHE : homeCacheDir(env);
}

/** Makes `dir` and its missing parents at mode 0755, whatever the umask: others pass through to the CLIs. */
function makeReachable(dir) {
  const missing = [];
  for (let at = dir; !existsSync(at); at = dirname(at)) missing.unshift(at);
  for (const path of missing) {
    mkdirSync(path);
    chmodSync(path, 0o755);
  }
}

function harnessDir(name, cache) {
  const { version } = HARNESS_PACKAGES[name];
  return join(cache, `${name}-${version}`);
}

function binPath(name, cache) {
  return join(harnessDir(name, cache), 'node_modules', '.bin', HARNESS_PACKAGES[name].bin);
}

function isInstalled(name, cache) {
  try {
    const marker = JSON.parse(readFileSync(join(harnessDir(name, cache), MARKER), 'utf8'));
    return marker.version === HARNESS_PACKAGES[name].version && existsSync(binPath(name, cache));
  } catch {
    return false;
  }
}

/** Copies a harness the home cache already holds (hard links where it can: no second 740 MB); false when it has none. */
function copyFromHomeCache(name, staging, cache) {
  const home = homeCacheDir(process.env);
  if (home === cache || !isInstalled(name, home)) return false;
  const from = harnessDir(name, home);
  for (const args of [['-al'], ['-a']]) {
    rmSync(staging, { recursive: true, force: true });
    if (spawnSync('cp', [...args, from, staging], { stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS }).status === 0) return true;
  }
  return false;
}

function install(name, cache) {
  const { pkg, version } = HARNESS_PACKAGES[name];
  const dir = harnessDir(name, cache);
  // Installed beside, then moved into place: a half-finished install is never taken as done.
  const staging = `${dir}.partial-${process.pid}`;
  makeReachable(cache);
  // Root's runnable copy comes from the home cache, downloaded there first when missing.
  if (cache === SHARED_CACHE && !isInstalled(name, homeCacheDir(process.env))) install(name, homeCacheDir(process.env));
  if (copyFromHomeCache(name, staging, cache)) return finish(staging, dir);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'package.json'), `${JSON.stringify({ name: `agent-runs-harness-${name}`, private: true })}\n`);
  const result = spawnSync(
    'npm',
    ['install', '--prefix', staging, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `${pkg}@${version}`],
    { stdio: ['ignore', 'inherit', 'inherit'], timeout: INSTALL_TIMEOUT_MS, env: { ...process.env, npm_config_update_notifier: 'false' } },
  );
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install ${pkg}@${version} failed (${result.error?.message ?? `exit ${result.status}`})`);
  }
  writeFileSync(join(staging, MARKER), `${JSON.stringify({ pkg, version })}\n`);
  finish(staging, dir);
}

/** Readable and runnable by every user (npm follows the umask), then moved into place. */
function finish(staging, dir) {
  const result = spawnSync('chmod', ['-R', 'a+rX', staging], { stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS });
  if (result.status !== 0) throw new Error(`chmod -R a+rX ${staging} failed (${result.error?.message ?? `exit ${result.status}`})`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
}

/** Installs the named harnesses that are missing; returns each one's executable path. */
export function installHarnesses(names = Object.keys(HARNESS_PACKAGES), cache = harnessCacheDir()) {
  const paths = {};
  for (const name of names) {
    if (!(name in HARNESS_PACKAGES)) throw new Error(`Unknown harness "${name}": use ${Object.keys(HARNESS_PACKAGES).join(', ')}.`);
    if (!isInstalled(name, cache)) install(name, cache);
    paths[name] = binPath(name, cache);
  }
  return paths;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const names = process.argv.slice(2);
    console.log(JSON.stringify(installHarnesses(names.length > 0 ? names : undefined)));
  } catch (error) {
    console.error(`install-harnesses: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
