import { RunModeSchema, withIssueNames } from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { chooseDisplay } from '../follow/choose-display.js';
import { followOnTerminal } from '../follow/follow-on-terminal.js';
import { reportOutcome } from '../follow/report-outcome.js';
import { budgetFromFlags, BUDGET_FLAG_NAMES, BUDGET_FLAGS } from '../input/budget-flags.js';
import { durationFlag, timeoutFlag } from '../input/duration-flag.js';
import { writeJson } from '../render/json-output.js';
import { UsageError } from '../usage-error.js';
import { WAIT_FLAGS } from './wait-flags.js';

const MODES = RunModeSchema.options;

export const followupCommand: Command = {
  name: 'followup',
  summary: 'Send a run a follow-up message (an ended run runs again)',
  usage: '<run-id> <message> [flags]',
  description:
    'Send a message to a run in any state: a finished, failed or cancelled run runs again in the same\n' +
    'working directory with the conversation so far; a running one gets it at once; a queued one starts\n' +
    'with it. With --wait, follow the run to its end as "wait" does (same exit codes).',
  positionals: true,
  usesApi: true,
  issueNames: BUDGET_FLAG_NAMES,
  flags: {
    mode: { type: 'string', value: '<mode>', description: `How the agent works on it: ${MODES.join(', ')} (default normal)` },
    ...BUDGET_FLAGS,
    wait: { type: 'boolean', description: 'Follow the run until it ends, then exit with its outcome' },
    ...WAIT_FLAGS,
  },
  examples: [
    '$0 followup 6f1c2a9e-… "Also add a test for the empty case"',
    '$0 followup 6f1c2a9e-… "Rebase on main" --wait --timeout 30m',
    '$0 followup 6f1c2a9e-… "Go on" --max-cost-usd 5 --wait   # a BLOCKED run, its cap raised',
  ],
  async run(flags, ctx) {
    const [runId, message, ...extra] = flags.positionals;
    if (runId === undefined || runId.trim() === '') {
      throw new UsageError('Missing <run-id>: "followup" needs the id of a run (see the list command).', flags.command);
    }
    if (message === undefined) throw new UsageError('Missing <message>: "followup" needs the message to send, in quotes.', flags.command);
    if (extra.length > 0) {
      throw new UsageError(`"followup" takes <run-id> and one <message> (quote it), got ${flags.positionals.length} arguments.`, flags.command);
    }
    const mode = flags.nonEmpty('mode');
    if (mode !== undefined && !(MODES as readonly string[]).includes(mode)) {
      throw new UsageError(`--mode must be one of ${MODES.join(', ')}, got "${mode}".`, flags.command);
    }
    const wait = flags.bool('wait');
    const json = flags.bool('json');
    if (!wait && (flags.has('timeout') || flags.has('poll-interval'))) {
      throw new UsageError('--timeout and --poll-interval go with --wait.', flags.command);
    }
    const timeoutMs = timeoutFlag(flags);
    const pollIntervalMs = durationFlag(flags, 'poll-interval');
    const client = ctx.client();
    const budget = budgetFromFlags(flags);
    const answer = await client.runs
      .followup(runId.trim(), { message, mode: mode as (typeof MODES)[number] | undefined, ...(budget ? { budget } : {}) })
      .catch((error: unknown) => {
        throw withIssueNames(error, BUDGET_FLAG_NAMES);
      });
    if (!wait) {
      if (json) writeJson(ctx.io.stdout, answer);
      else ctx.io.stdout.write(`Follow-up sent to ${runId.trim()}${answer.state ? ` (now ${answer.state})` : ''}.\n`);
      return EXIT.OK;
    }
    if (!json) ctx.io.stderr.write(`Follow-up sent to ${runId.trim()}${answer.state ? ` (now ${answer.state})` : ''}; waiting for it to end.\n`);
    const outcome = await followOnTerminal({
      client,
      runId: runId.trim(),
      io: ctx.io,
      display: chooseDisplay(ctx.io, runId.trim(), json),
      quiet: flags.bool('quiet'),
      afterFollowup: answer.followup_id,
      timeoutMs,
      pollIntervalMs,
    });
    return reportOutcome(outcome, runId.trim(), ctx, json);
  },
};
