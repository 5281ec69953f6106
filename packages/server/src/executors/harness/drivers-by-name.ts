import type { HarnessName } from '../../domain/harness-config.js';
import { claudeDriver } from './claude-driver.js';
import { codexDriver } from './codex-driver.js';
import { geminiDriver } from './gemini-driver.js';
import type { HarnessDriver } from './harness-driver.js';

/** The drivers of the harnesses this server knows, by name. */
export const HARNESS_DRIVERS: ReadonlyMap<HarnessName, HarnessDriver> = new Map<HarnessName, HarnessDriver>([
  ['claude', claudeDriver],
  ['codex', codexDriver],
  ['gemini', geminiDriver],
]);
