import { z } from 'zod';

/** Every state the contract names, in lifecycle order. */
export const KNOWN_RUN_STATES = [
  'QUEUED',
  'PENDING',
  'CLAIMED',
  'INPROGRESS',
  'SUCCEEDED',
  'FAILED',
  'BLOCKED',
  'ERROR',
  'CANCELLED',
] as const;

export type KnownRunState = (typeof KNOWN_RUN_STATES)[number];

/**
 * A run's state. New states may appear on the service before this package knows them,
 * so a response may carry any string; `(string & {})` keeps editor completion.
 */
export type RunState = KnownRunState | (string & {});

/** Strict: for requests and query filters, where an unknown value is a mistake. */
export const KnownRunStateSchema = z.enum(KNOWN_RUN_STATES, { error: `must be one of ${KNOWN_RUN_STATES.join(', ')}` });

/** Lenient: for responses, where an unknown value is kept and surfaced. */
export const RunStateSchema = z.union([KnownRunStateSchema, z.string().min(1)]) as unknown as z.ZodType<RunState>;

/** States where a waiting client stops. BLOCKED needs a person and is reported as such. */
export const TERMINAL_RUN_STATES: readonly KnownRunState[] = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED', 'BLOCKED'];

/** True for a terminal state; an unknown state is never terminal. */
export function isTerminalState(state: RunState): boolean {
  return (TERMINAL_RUN_STATES as readonly string[]).includes(state);
}
