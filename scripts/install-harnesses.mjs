#!/usr/bin/env node
// The three harness CLIs the tests drive, at pinned versions, each in a directory of its own
// under a cache outside the workspace packages: the product never depends on or ships them.
//
//   node scripts/install-harnesses.mjs [claude|codex|gemini ...]
//       installs what is missing (all three by default) and prints one JSON line:
//       { "claude": "<path of its executable>", ... }
//
// The cache is $AGENT_RUNS_HARNESS_CACHE, else $XDG_CACHE_HOME/agent-runs/harnesses, else
// ~/.cache/agent-runs/harnesses. A harness whose marker file names its pinned version is
// taken as installed without asking npm anything, so a cached run takes milliseconds.
// Node only, no dependencies.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The pinned versions: one place to move them. */
export const HARNESS_PACKAGES = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.330', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
};

const INSTALL_TIMEOUT_MS = 15 * 60_000;
const MARKER = 'agent-runs-installed.json';

export function harnessCacheDir(env = process.env) {
  if (env.AGENT_RUNS_HARNESS_CACHE) return env.AGENT_RUNS_HARNESS_CACHE;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'agent-runs', 'harnesses');
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

function install(name, cache) {
  const { pkg, version } = HARNESS_PACKAGES[name];
  const dir = harnessDir(name, cache);
  // Installed beside, then moved into place: a half-finished install is never taken as done.
  const staging = `${dir}.partial-${process.pid}`;
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
