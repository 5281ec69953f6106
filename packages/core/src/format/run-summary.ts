import { formatUsage } from './usage-line.js';
import { formatSpend } from './run-spend.js';
import type { RunItem } from '../contract/run-item.js';
import { isTerminalState } from '../contract/run-state.js';
import { formatElapsed } from './duration.js';
import { visibleText } from './visible-text.js';

/**
 * Milliseconds from the start (or creation) to the end: the last update of a run that has
 * ended, now for one still going (its last update may be its start). Undefined if the
 * timestamps are unreadable.
 */
export function runDurationMs(run: RunItem, now = Date.now()): number | undefined {
  const from = Date.parse(run.started_at ?? run.created_at);
  const to = isTerminalState(run.state) ? Date.parse(run.updated_at) : now;
  return Number.isNaN(from) || Number.isNaN(to) ? undefined : Math.max(0, to - from);
}

/** What a person should know about a state, beyond its name. */
export function describeState(state: string): string {
  switch (state) {
    case 'SUCCEEDED':
      return 'succeeded';
    case 'FAILED':
      return 'failed';
    case 'ERROR':
      return 'ended with an error on the service side';
    case 'CANCELLED':
      return 'was cancelled';
    case 'BLOCKED':
      return 'is blocked and needs a person (approval or input)';
    case 'QUEUED':
    case 'PENDING':
    case 'CLAIMED':
      return 'is waiting to start';
    case 'INPROGRESS':
      return 'is running';
    default:
      return `is in state ${state}, which this client does not know`;
  }
}

/**
 * The one-line verdict on a run: `Run 8c1f… succeeded.`, or with `withStatus` and a status
 * message, `Run 8c1f… failed: tests failed` (raw text: escape it where it is shown).
 */
export function runHeadline(run: RunItem, withStatus = false): string {
  const message = withStatus ? run.status_message?.message : undefined;
  // Blocked at its budget, it needs a raised cap rather than an approval.
  const state = run.state === 'BLOCKED' && run.status_message?.error_code === 'budget_exceeded' ? 'is blocked at its budget' : describeState(run.state);
  return `Run ${run.run_id} ${state}${message ? `: ${message}` : '.'}`;
}

/** The facts of a run as label/value rows, in the order people read them. */
export function runSummaryRows(run: RunItem): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ['Run', run.run_id],
    ['State', run.state],
    ['Title', run.title],
  ];
  const harness = run.agent_config?.harness;
  if (harness?.type) rows.push(['Harness', harness.type]);
  const model = harness?.model_id || run.agent_config?.model_id;
  if (model) rows.push(['Model', model]);
  const duration = runDurationMs(run);
  if (duration !== undefined) rows.push(['Duration', formatElapsed(duration)]);
  if (run.session_link) rows.push(['Session', run.session_link]);
  const usage = formatUsage(run.request_usage);
  if (usage) rows.push(['Usage', usage]);
  const spend = formatSpend(run);
  if (spend) rows.push(['Budget', `${spend} spent`]);
  if (run.status_message?.message) rows.push(['Status', run.status_message.message]);
  return rows;
}

/**
 * A few plain lines describing a run, for logs and hosts that show only text. Values are
 * the run's own text, shown with control characters escaped: one line per row, whatever
 * the title or status message holds, and nothing a terminal would act on.
 */
export function summarizeRun(run: RunItem): string {
  const head = visibleText(runHeadline(run));
  const width = Math.max(...runSummaryRows(run).map(([label]) => label.length));
  const rows = runSummaryRows(run)
    .slice(1)
    .map(([label, value]) => `  ${label.padEnd(width)}  ${visibleText(value)}`);
  return [head, ...rows].join('\n');
}
