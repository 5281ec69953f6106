import * as core from '@actions/core';
import { runSummaryRows, type RunItem } from '@agent-runs/core';
import { escapeRunText, runLinkHtml } from './workflow-text.js';

/** A compact two-column table of the run, under a one-line verdict; then the last lines of the agent's output. */
export function summaryHtml(run: RunItem, headline: string, outputTail: readonly string[] = []): string {
  const rows = runSummaryRows(run)
    .map(([label, value]) => {
      const cell = label === 'Session' ? runLinkHtml(value) : escapeRunText(value);
      return `<tr><th align="left">${escapeRunText(label)}</th><td>${cell}</td></tr>`;
    })
    .join('');
  const output = outputTail.length
    ? `<details open><summary>Last ${outputTail.length} lines of agent output</summary>\n<pre>${outputTail.map((line) => escapeRunText(line)).join('\n')}</pre>\n</details>\n`
    : '';
  return `<h3>Agent run</h3>\n<p>${escapeRunText(headline)}</p>\n<table>${rows}</table>\n${output}`;
}

/** Appends the run to the job summary; a missing summary file is no reason to fail the step. */
export async function writeJobSummary(run: RunItem, headline: string, outputTail?: readonly string[]): Promise<void> {
  try {
    await core.summary.addRaw(summaryHtml(run, headline, outputTail), true).write();
  } catch (error) {
    core.debug(`No job summary written: ${(error as Error).message}`);
  }
}
