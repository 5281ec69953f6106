import { z } from 'zod';
import { DURATION_HINT, parseDuration } from '@agent-runs/core';

export const DEFAULT_WAIT_TIMEOUT = '10m';
/** The longest single wait; an assistant can always call again. */
export const MAX_WAIT_TIMEOUT_MS = 24 * 3_600_000;

/** The `timeout` argument of wait_for_run: a duration string, checked by core's parser. */
export const waitTimeoutArgument = z
  .string()
  .refine(
    (value) => {
      const ms = parseDuration(value) ?? 0;
      return ms > 0 && ms <= MAX_WAIT_TIMEOUT_MS;
    },
    { error: `timeout must be ${DURATION_HINT}, greater than zero and at most 24h` },
  )
  .optional()
  .describe(
    `How long to wait before returning the run as it is: ${DURATION_HINT} (default ${DEFAULT_WAIT_TIMEOUT}, at most 24h). ` +
      'The run goes on after a timeout; call again to keep waiting.',
  );

export function waitTimeoutMs(value: string | undefined): number {
  return parseDuration(value ?? DEFAULT_WAIT_TIMEOUT) ?? parseDuration(DEFAULT_WAIT_TIMEOUT)!;
}
