import { DURATION_HINT, parseDuration } from '@agent-runs/core';
import type { ParsedFlags } from '../flags/parsed-flags.js';
import { UsageError } from '../usage-error.js';

/** A positive duration flag in milliseconds, or undefined when not given. */
export function durationFlag(flags: ParsedFlags, name: string): number | undefined {
  const text = flags.string(name);
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) {
    throw new UsageError(`--${name} must be ${DURATION_HINT}, got "${text}".`, flags.command);
  }
  return ms;
}

/** `--timeout` in milliseconds, or undefined when not given. */
export function timeoutFlag(flags: ParsedFlags): number | undefined {
  return durationFlag(flags, 'timeout');
}
