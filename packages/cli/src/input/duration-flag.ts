import { DURATION_HINT, readDuration } from '@agent-runs/core';
import type { ParsedFlags } from '../flags/parsed-flags.js';
import { UsageError } from '../usage-error.js';

/** A positive duration flag in milliseconds (at most core's MAX_DURATION), or undefined when not given. */
export function durationFlag(flags: ParsedFlags, name: string): number | undefined {
  const text = flags.string(name);
  if (text === undefined) return undefined;
  const { ms, problem } = readDuration(text);
  if (problem !== undefined) throw new UsageError(`--${name} ${problem}.`, flags.command);
  if (ms <= 0) throw new UsageError(`--${name} must be ${DURATION_HINT}, greater than zero, got "${text}".`, flags.command);
  return ms;
}

/** `--timeout` in milliseconds, or undefined when not given. */
export function timeoutFlag(flags: ParsedFlags): number | undefined {
  return durationFlag(flags, 'timeout');
}
