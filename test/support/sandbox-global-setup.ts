import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const onPath = (program: string) => (process.env['PATH'] ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, program)));

/**
 * vitest's global set-up for the agent tests: their servers run agents with `--sandbox auto`,
 * which needs bubblewrap. Run as root without it, agents would run bare as the agent user,
 * who cannot read the tests' private temporary directories, and dozens of tests would fail
 * far from the cause. As root, Debian's bubblewrap is installed (as `.ci/run` does);
 * otherwise the set-up says what to install.
 */
export default function setup(): void {
  if (onPath('bwrap')) return;
  if (process.getuid?.() !== 0) {
    process.stderr.write('sandbox-global-setup: bubblewrap (bwrap) is missing; the sandbox tests need it: apt-get install bubblewrap.\n');
    return;
  }
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env, timeout: 5 * 60_000 });
    execFileSync('apt-get', ['install', '-y', '-qq', 'bubblewrap'], { stdio: 'ignore', env, timeout: 5 * 60_000 });
  } catch (error) {
    process.stderr.write(`sandbox-global-setup: bubblewrap could not be installed (${(error as Error).message}); the agent tests that run as root will fail.\n`);
  }
}
