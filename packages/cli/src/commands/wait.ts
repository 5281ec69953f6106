import type { Command } from '../command.js';
import { chooseDisplay } from '../follow/choose-display.js';
import { followOnTerminal } from '../follow/follow-on-terminal.js';
import { reportOutcome } from '../follow/report-outcome.js';
import { durationFlag, timeoutFlag } from '../input/duration-flag.js';
import { runIdArgument } from './run-id-argument.js';
import { WAIT_FLAGS } from './wait-flags.js';

export const waitCommand: Command = {
  name: 'wait',
  summary: 'Follow a run until it ends; exit with its outcome',
  usage: '<run-id> [flags]',
  description:
    'Follow a run until it reaches a terminal state, then print it. Exits 0 if it succeeded,\n' +
    '1 if it failed, errored, was cancelled or is blocked, 3 on --timeout. Ctrl-C stops waiting, not the run.',
  positionals: true,
  usesApi: true,
  flags: WAIT_FLAGS,
  examples: ['$0 wait 6f1c2a9e-…', '$0 wait 6f1c2a9e-… --timeout 10m --json'],
  async run(flags, ctx) {
    const runId = runIdArgument(flags);
    const timeoutMs = timeoutFlag(flags);
    const pollIntervalMs = durationFlag(flags, 'poll-interval');
    const json = flags.bool('json');
    const client = ctx.client();
    // One plain fetch first: a wrong id or an unreachable server fails now, instead of
    // being waited out as a transient problem until the timeout.
    await client.runs.get(runId);
    const outcome = await followOnTerminal({
      client,
      runId,
      io: ctx.io,
      display: chooseDisplay(ctx.io, runId, json),
      timeoutMs,
      pollIntervalMs,
      quiet: flags.bool('quiet'),
    });
    return reportOutcome(outcome, runId, ctx, json);
  },
};
