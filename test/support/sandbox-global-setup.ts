import { findProgram } from '../../packages/server/src/executors/sandbox/find-program.js';
import { installDebianPackage } from '../../packages/server/test/support/debian-package.js';

/**
 * vitest's global set-up for the agent tests: their servers run agents with `--sandbox auto`,
 * which needs bubblewrap. Run as root without it, agents would run bare as the agent user,
 * who cannot read the tests' private temporary directories, and dozens of tests would fail
 * far from the cause. As root, Debian's bubblewrap is installed (as `.ci/run` does);
 * otherwise the set-up says what to install.
 */
export default function setup(): void {
  // Found as the server finds it.
  if (findProgram('bwrap')) return;
  if (process.getuid?.() !== 0) {
    process.stderr.write('sandbox-global-setup: bubblewrap (bwrap) is missing; the sandbox tests need it: apt-get install bubblewrap.\n');
    return;
  }
  try {
    installDebianPackage('bubblewrap');
  } catch (error) {
    process.stderr.write(`sandbox-global-setup: bubblewrap could not be installed (${(error as Error).message}); the agent tests that run as root will fail.\n`);
  }
}
