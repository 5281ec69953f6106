import { DURATION_HINT, parseDuration } from '@agent-runs/core';
import type { ParsedFlags } from '../flags/parsed-flags.js';
import { UsageError } from '../usage-error.js';

/** `--timeout` in milliseconds, or undefined when not given. */
export function timeoutFlag(flags: ParsedFlags): number | undefined {
  const text = flags.string('timeout');
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) {
    throw new UsageError(`--timeout must be ${DURATION_HINT}, got "${text}".`, flags.command);
  }
  return ms;
}
