import { z } from 'zod';
import { DURATION_HINT, parseDuration } from '@agent-runs/core';

export const DEFAULT_WAIT_TIMEOUT = '10m';

/** The `timeout` argument of wait_for_run: a duration string, checked by core's parser. */
export const waitTimeoutArgument = z
  .string()
  .refine((value) => (parseDuration(value) ?? 0) > 0, {
    error: `timeout must be ${DURATION_HINT} (greater than zero)`,
  })
  .optional()
  .describe(
    `How long to wait before returning the run as it is: ${DURATION_HINT} (default ${DEFAULT_WAIT_TIMEOUT}). ` +
      'The run goes on after a timeout; call again to keep waiting.',
  );

export function waitTimeoutMs(value: string | undefined): number {
  return parseDuration(value ?? DEFAULT_WAIT_TIMEOUT) ?? parseDuration(DEFAULT_WAIT_TIMEOUT)!;
}
