import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * vitest's global set-up for the harness tests: installs the pinned harness CLIs into their
 * cache when missing (scripts/install-harnesses.mjs; milliseconds when cached) and hands
 * their paths to the workers as `AGENT_RUNS_TEST_HARNESS_<NAME>`. An install that fails is
 * reported here, and the harness tests then fail naming the variable they miss.
 */
const run = promisify(execFile);
const script = fileURLToPath(new URL('../../scripts/install-harnesses.mjs', import.meta.url));
const INSTALL_TIMEOUT_MS = 15 * 60_000;

export default async function setup(): Promise<void> {
  try {
    const { stdout } = await run(process.execPath, [script], { timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
    const paths = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, string>;
    for (const [name, path] of Object.entries(paths)) process.env[`AGENT_RUNS_TEST_HARNESS_${name.toUpperCase()}`] = path;
  } catch (error) {
    process.stderr.write(`harness-global-setup: the harness CLIs could not be installed: ${(error as Error).message}\n`);
  }
}
