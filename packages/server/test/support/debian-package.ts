import { execFileSync } from 'node:child_process';

/** How long one apt-get step may take before the set-up gives up on it. */
const APT_STEP_MS = 5 * 60_000;

/** Installs a Debian package with apt-get, as `.ci/run` does; only root can. Throws when apt-get fails. */
export function installDebianPackage(name: string): void {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env, timeout: APT_STEP_MS });
  execFileSync('apt-get', ['install', '-y', '-qq', name], { stdio: 'ignore', env, timeout: APT_STEP_MS });
}
