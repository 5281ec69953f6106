import { formatElapsed, visibleText, type FollowOutcome, type RunItem } from '@agent-runs/core';
import type { CommandContext } from '../command.js';
import { EXIT, exitCodeForState } from '../exit-codes.js';
import { paintFor } from '../render/colors.js';
import { renderRunSummary } from '../render/run-details.js';
import { writeJson } from '../render/json-output.js';

/** The commands that pick up a run that is still going, for hints. */
export function followUpHint(ctx: CommandContext, runId: string): string {
  const target = ctx.targetFlags ? ` ${ctx.targetFlags}` : '';
  return `Follow it with "${ctx.invocation} wait ${runId}${target}" or cancel it with "${ctx.invocation} cancel ${runId}${target}".`;
}

/** How to go on with a run stopped at its budget: a follow-up raising the cap it reached. */
export function budgetHint(ctx: CommandContext, run: RunItem): string {
  const budget = run.agent_config?.budget ?? {};
  const target = ctx.targetFlags ? ` ${ctx.targetFlags}` : '';
  const raised = [
    budget.max_cost_usd !== undefined ? `--max-cost-usd ${Number((budget.max_cost_usd * 2).toPrecision(6))}` : '',
    budget.max_tokens !== undefined ? `--max-tokens ${budget.max_tokens * 2}` : '',
    budget.max_duration_seconds !== undefined ? `--max-duration ${budget.max_duration_seconds * 2}s` : '',
  ].filter(Boolean);
  return `The run stopped at its budget; it goes on with a raised cap: "${ctx.invocation} followup ${visibleText(run.run_id)} 'Go on' ${raised.join(' ')}${target}".`;
}

/** Prints the result of a follow (summary or JSON on stdout, hints on stderr) and gives the exit code. */
export function reportOutcome(outcome: FollowOutcome, runId: string, ctx: CommandContext, json: boolean): number {
  const { io } = ctx;
  switch (outcome.kind) {
    case 'finished': {
      if (json) writeJson(io.stdout, outcome.run);
      else io.stdout.write(renderRunSummary(outcome.run, paintFor(io.stdout, io.env)));
      if (outcome.run.state === 'BLOCKED' && outcome.run.status_message?.error_code === 'budget_exceeded') {
        io.stderr.write(`${budgetHint(ctx, outcome.run)}\n`);
      }
      return exitCodeForState(outcome.run.state);
    }
    case 'timed-out': {
      const last = outcome.error.lastRun;
      const lastState = last ? visibleText(last.state) : 'not finished';
      if (json && last) writeJson(io.stdout, last);
      io.stderr.write(
        `Timed out after ${formatElapsed(outcome.error.elapsedMs)}: run ${runId} is still ${lastState} and goes on.\n` +
          `${followUpHint(ctx, runId)}\n`,
      );
      return EXIT.TIMED_OUT;
    }
    case 'stopped': {
      const state = outcome.run ? ` (${visibleText(outcome.run.state)})` : '';
      io.stderr.write(`\nStopped waiting. Run ${runId}${state} goes on.\n${followUpHint(ctx, runId)}\n`);
      return EXIT.INTERRUPTED;
    }
  }
}
