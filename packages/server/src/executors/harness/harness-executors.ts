import type { HarnessName } from '../../domain/harness-config.js';
import type { RunExecutor } from '../run-executor.js';
import { claudeDriver } from './claude-driver.js';
import { codexDriver } from './codex-driver.js';
import { geminiDriver } from './gemini-driver.js';
import type { HarnessDriver } from './harness-driver.js';
import { HarnessExecutor, type HarnessExecutorOptions } from './harness-executor.js';
import type { HarnessSetup } from './harness-setup.js';

/** The drivers of the harnesses this server knows, by name. */
export const HARNESS_DRIVERS: ReadonlyMap<HarnessName, HarnessDriver> = new Map<HarnessName, HarnessDriver>([
  ['claude', claudeDriver],
  ['codex', codexDriver],
  ['gemini', geminiDriver],
]);

/** One executor per known harness, each wrapped by `wrap` (the environment preparation). */
export function harnessExecutors(
  setup: HarnessSetup,
  wrap: (inner: RunExecutor) => RunExecutor,
  options: Omit<HarnessExecutorOptions, 'setup'>,
): Map<HarnessName, RunExecutor> {
  return new Map(setup.names().map((name) => [name, wrap(new HarnessExecutor(name, { ...options, setup }))]));
}
