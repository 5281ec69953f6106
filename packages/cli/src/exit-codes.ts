import type { RunState } from '@agent-runs/core';

/** Every exit status the command uses; scripts may rely on them. */
export const EXIT = {
  /** The command did what was asked; for a waited run, it SUCCEEDED. */
  OK: 0,
  /** The run ended without succeeding: FAILED, ERROR, CANCELLED or BLOCKED. */
  RUN_NOT_SUCCEEDED: 1,
  /** Bad usage or input: an unknown flag, a bad value, a missing argument. */
  USAGE: 2,
  /** The run did not finish within --timeout; it goes on. */
  TIMED_OUT: 3,
  /** The API answered with an error, or could not be reached. */
  API_ERROR: 4,
  /** Ctrl-C while waiting (128 + SIGINT). */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit status for a run that reached a terminal state. */
export function exitCodeForState(state: RunState): ExitCode {
  return state === 'SUCCEEDED' ? EXIT.OK : EXIT.RUN_NOT_SUCCEEDED;
}

/** The exit codes as `--help` and the README show them. */
export const EXIT_CODES_HELP = [
  'Exit codes:',
  '  0    success; for a waited run, it SUCCEEDED',
  '  1    the run failed, errored, was cancelled or is blocked',
  '  2    bad usage or input, or a download that cannot be saved (the message names the flag)',
  '  3    timed out waiting (--timeout); the run goes on',
  '  4    an API error or the server could not be reached',
  '  130  interrupted (Ctrl-C) while waiting; the run goes on',
].join('\n');
